// Issue 30 with a real `vitest run --ui`: a case that fails its scorers, in a suite whose thresholds
// allow it, is a red test in the UI (not a plain green tick) and says why, while the exit code stays
// the gate's: 0, the suite holds (SPEC §12, §5; docs/adr/0385). The UI reads the same task states
// Vitest's JSON reporter writes, so the JSON reporter beside it is the witness.
import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { countingSuite, makeProject } from '../helpers/project.js'

interface JsonAssertion {
  title: string
  status: string
  failureMessages: string[]
  meta: { digline?: { kind: string; case?: { verdict: string } } }
}

/** A port nobody listens on now: Vitest 4.1 ignores `--api.port=0`. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

test('under --ui a failing case the thresholds allow is a red test with its reason, a passing case is green, and the launch exits 0', async () => {
  // c001 answers wrong; the thresholds allow one failure in four.
  const project = makeProject({ 'evals/shown.eval.ts': countingSuite({ name: 'shown', cases: 4, answer: "i === 1 ? 'wrong-' + i : 'ok-' + i", thresholds: '{ passRate: 0.5 }' }) })
  const port = await freePort()
  const run = await project.vitest(['--ui', '--open=false', `--api.port=${port}`, '--api.host=127.0.0.1', '--reporter=default', '--reporter=json', '--outputFile.json=report.json'])
  const output = run.stdout + run.stderr
  expect(output).toContain(`UI started at http://127.0.0.1:${port}`)
  expect(run.code, output).toBe(0)
  expect(output).toContain('digline exit 0')

  const json = JSON.parse(project.read('report.json')) as { testResults: { assertionResults: JsonAssertion[] }[] }
  const tests = new Map(json.testResults.flatMap((r) => r.assertionResults).map((a) => [a.title, a]))
  const failing = tests.get('c001')!
  expect(failing.status).toBe('failed')
  expect(failing.meta.digline?.case?.verdict).toBe('fail')
  expect(failing.failureMessages.join('\n')).toMatch(/CaseFailedError: shown › c001 failed \(0 of 1 sample passed\): .*the "digline verdict" test says whether the suite holds/s)
  for (const passing of ['c000', 'c002', 'c003']) expect(tests.get(passing)!.status, passing).toBe('passed')
  expect(tests.get('digline verdict')!.status).toBe('passed')
})
