// User onCase hooks, registered from a hook file named in the plugin options: called once per
// finished case after its journal record is durable; a hook that throws stops the suite there.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { defaultConfig, makeProject } from '../helpers/project.js'
import { callLines, killSuite } from '../helpers/kill.js'

const HOOK = `import { onCase } from 'digline'
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

onCase(async ({ result, cause }) => {
  // the journal record of this case is on disk before the hook runs
  const dir = join('.digline', 'acme', 'runs', 'killed', '.pending')
  const journal = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('')
  const durable = journal.includes('"case_id":"' + result.case_id + '"')
  appendFileSync('hook.log', result.case_id + ' ' + result.verdict + ' ' + durable + '\\n')
  if (process.env.HOOK_THROWS === result.case_id) throw new Error('dashboard is down')
})
`

const config = defaultConfig('acme', ", hooks: ['hooks/stream.ts']")

test('a hook sees every case once, after its journal record is durable', async () => {
  const project = makeProject({ 'vitest.config.ts': config, 'hooks/stream.ts': HOOK, 'evals/killed.eval.ts': killSuite({ concurrency: 4, cases: 30, delayMs: 1 }) })
  const result = await project.vitest()
  expect(result.code, result.stdout + result.stderr).toBe(0)
  const lines = readFileSync(join(project.dir, 'hook.log'), 'utf8').trim().split('\n')
  expect(lines).toHaveLength(30)
  expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(30)
  expect(lines.every((l) => l.endsWith(' true'))).toBe(true)
})

test('a hook that throws stops the suite at that case: no new case starts, earlier cases stay journaled, exit 2', async () => {
  const project = makeProject({ 'vitest.config.ts': config, 'hooks/stream.ts': HOOK, 'evals/killed.eval.ts': killSuite({ concurrency: 1, cases: 30, delayMs: 1 }) })
  const result = await project.vitest([], { HOOK_THROWS: 'c010' })
  expect(result.code, result.stdout + result.stderr).toBe(2)
  expect(result.stdout + result.stderr).toContain('dashboard is down')
  expect(callLines(project)).toHaveLength(11)
  expect(project.runFiles('acme', 'killed')).toEqual([])
  const leg = readdirSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', '.pending'))
  expect(leg).toHaveLength(1)
  // and the journal finishes the run without calling what it holds
  const resumed = await project.digline(['run', '--resume'])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(callLines(project)).toHaveLength(30)
})

test("Vitest's retry re-runs a case's test without calling the target again or journaling twice", async () => {
  const suite = killSuite({ concurrency: 2, cases: 5, delayMs: 1, answer: "i === 2 ? (() => { throw new Error('boom') })() : i" })
  const project = makeProject({ 'evals/killed.eval.ts': suite })
  const result = await project.vitest(['--retry=2'])
  expect(result.code, result.stdout + result.stderr).toBe(2)
  expect(callLines(project)).toHaveLength(5)
  const doc = JSON.parse(readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', project.runFiles('acme', 'killed')[0]!), 'utf8'))
  expect(doc.results.map((r: { verdict: string }) => r.verdict)).toEqual(['fail', 'pass', 'error', 'pass', 'pass'])
})
