// The gates on tokens and latency per case with real processes: a run that holds its pass rate but
// spends more tokens, or answers more slowly, fails `vitest run` with exit 1, and the comparison names
// the gate, its change and its interval; a rise of the cost per case fails it too, and without prices
// it is refused. A resumed run keeps the latencies its first leg journaled. The token, latency and
// cost gates share three launches of one project (ADR 0545).
// Baselines are promoted through the store and `compare` runs through the CLI's main() in-process:
// these tests are about the gates, and promote and compare have their own end-to-end tests.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { promoteFirst } from '../helpers/make-run.js'
import { callLines, killAfterCalls } from '../helpers/kill.js'
import { copyProject, makeProject, type ProcessResult, type Project } from '../helpers/project.js'

/** 30 cases that always pass; the target sleeps DELAY ms and reports (100 + 10·(i % 7))·TOKENS tokens. */
function gatedSuite(tolerances: string, name = 'gated', cases = 30, concurrency = 4): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

evalSuite({
  name: ${JSON.stringify(name)},
  cases: Array.from({ length: ${cases} }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: i })),
  target: {
    config: { model: 'det-v1' },
    async ask(i, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      await new Promise((r) => setTimeout(r, Number(process.env.DELAY ?? 5)))
      const tokens = Math.round((100 + 10 * (i % 7)) * Number(process.env.TOKENS ?? 1))
      return { output: i, model: 'det-v1-2026', usage: { input_tokens: tokens, output_tokens: 20 } }
    },
  },
  samples: 2,
  scorers: [scorers.exact()],
  concurrency: ${concurrency},
  tolerances: ${tolerances},
})
`
}

/** Makes the run `key` the suite's baseline through the store (what `digline promote` files). */
async function promote(project: Project, suite: string, key: string): Promise<void> {
  const store = new FileResultStore({ root: join(project.dir, '.digline') })
  await promoteFirst(store, await store.readRun('acme', suite, key), '2026-11-29T10:30:00.000001Z')
}

/** `digline compare …` through the CLI's main() in the project's directory. */
async function compare(project: Project, argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const code = await main(['compare', ...argv], {
    cwd: project.dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' },
    stdout: (text) => void (stdout += `${text}\n`),
    stderr: () => undefined,
  })
  return { code, stdout }
}

function doc(project: Project, suite: string, index = -1): { results: { case_id: string; samples: { latency_ms?: number }[] }[]; config_hash: string } {
  const file = project.runFiles('acme', suite).at(index)!
  return JSON.parse(readFileSync(join(project.dir, '.digline', 'acme', 'runs', suite, file), 'utf8'))
}

// One project holds the three suites: the same three launches (baseline, unchanged, dearer and
// slower) measure the token and latency gates of gated and the cost gate of costed (ADR 0545).
const prices = "prices: { 'det-v1-2026': { input: 2, output: 8 } },"
const costedSuite = (extra: string) => gatedSuite('{ costPerCase: 0.1 }', 'costed', 12).replace('  samples: 2,', `  samples: 2,\n  ${extra}`)
let project: Project
let first: ProcessResult
let same: ProcessResult
let worse: ProcessResult

beforeAll(async () => {
  // plain, without the new tolerances, rides along in the first launch only
  project = makeProject({
    'evals/gated.eval.ts': gatedSuite('{ tokensPerCase: 0.1, latencyPerCase: 1 }'),
    'evals/costed.eval.ts': costedSuite(prices),
    'evals/plain.eval.ts': gatedSuite('{ passRate: 0.05 }', 'plain', 5),
  })
  first = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  rmSync(join(project.dir, 'evals', 'plain.eval.ts'))
  for (const suite of ['gated', 'costed']) await promote(project, suite, project.runFiles('acme', suite)[0]!.replace(/\.json$/, ''))
  same = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T11:00:00.000001Z' })
  worse = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T12:00:00.000001Z', TOKENS: '1.3', DELAY: '300' })
}, 300_000) // the launches of two tests

test('tokens and latency per case: an unchanged run holds; 30% more tokens, and a slower target, each regress with exit 1 and say by how much', async () => {
  const recorded = doc(project, 'gated', 0)
  expect(recorded.results.every((r) => r.samples.every((s) => Number.isInteger(s.latency_ms) && s.latency_ms! >= 4))).toBe(true)

  expect(same.stdout).toMatch(/tokens per case +0\.0% per case, 95% interval \[0\.0%, 0\.0%\] over 30 shared cases \(tolerance \+10\.0%\)/)
  expect(same.stdout).not.toMatch(/regressed tokens per case/)

  // One launch both dearer and slower: each gate names its own regression (a gate that stopped
  // firing fails its own line below, whatever the other one does), and the pass rate held.
  expect(worse.code, worse.stdout + worse.stderr).toBe(1)
  expect(worse.stdout).toContain('digline gated regressed')
  expect(worse.stdout).toMatch(/regressed tokens per case \+2\d\.\d% per case, 95% interval \[\+2\d\.\d%, \+2\d\.\d%\] over 30 shared cases/)
  expect(worse.stdout).toMatch(/difference +\+?0\.0 points/)
  expect(worse.stdout).toMatch(/regressed latency per case \+\d+\.\d% per case, 95% interval/)
  const compared = await compare(project, ['--suite', 'gated', '--run', 'latest', '--json'])
  expect(compared.code).toBe(1)
  const json = JSON.parse(compared.stdout)
  const latency = json.baseline.gates.find((g: { gate: string }) => g.gate === 'latency_per_case')
  expect(latency).toMatchObject({ gate: 'latency_per_case', tolerance: 1, n: 30, regressed: true, unmeasured: null })
  expect(latency.relative.ci95.low).toBeGreaterThan(1)
  const md = await compare(project, ['--suite', 'gated', '--run', 'latest', '--format', 'md'])
  expect(md.stdout).toMatch(/\*\*Latency per case:\*\* \+\d+\.\d% per case, 95% interval .* — \*\*regressed\*\*\./)
})

test('a resumed run keeps the latencies its first leg journaled, case for case', async () => {
  const project = makeProject({ 'evals/killed.eval.ts': gatedSuite('{ latencyPerCase: 0.5 }', 'killed', 60, 2) })
  const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z', DELAY: '15' }
  await killAfterCalls(project, 40, env)
  const pending = (await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'killed'))[0]!
  expect(pending.done.size).toBeGreaterThan(5)
  const journaled = new Map([...pending.done].map(([id, result]) => [id, result.samples.map((s) => s.latency_ms)]))
  const before = callLines(project).length
  const resumed = await project.digline(['run', '--resume'], { DELAY: '40' })
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(callLines(project).length - before).toBe((60 - pending.done.size) * 2)
  const results = doc(project, 'killed').results
  for (const [id, latencies] of journaled) expect(results.find((r) => r.case_id === id)!.samples.map((s) => s.latency_ms)).toEqual(latencies)
  // the second leg measured its own calls, each at least its 40 ms sleep
  const fresh = results.filter((r) => !journaled.has(r.case_id))
  expect(fresh.length).toBe(60 - pending.done.size)
  expect(fresh.every((r) => r.samples.every((s) => s.latency_ms! >= 39))).toBe(true)
})

test('costPerCase records each case’s target cost at the suite’s prices, and a rise fails the run; without prices it is refused (64) before any call; a suite without the new tolerances records no latency and no per-case cost', async () => {
  const text = project.read(`.digline/acme/runs/plain/${project.runFiles('acme', 'plain')[0]!}`)
  expect(text).not.toContain('latency_ms')
  expect(text).not.toContain('target_cost')
  const written = JSON.parse(project.read(`.digline/acme/runs/costed/${project.runFiles('acme', 'costed')[0]!}`)) as {
    results: { target_cost: number; samples: { usage: { input_tokens: number; output_tokens: number } }[] }[]
  }
  for (const r of written.results) {
    const expected = r.samples.reduce((s, x) => s + (x.usage.input_tokens * 2 + x.usage.output_tokens * 8) / 1e6, 0)
    expect(r.target_cost).toBeCloseTo(expected, 9)
  }
  // 30% more input tokens is about 19% more cost: costed regresses on its own in the dearer launch
  expect(same.stdout).not.toContain('digline costed regressed')
  expect(worse.code, worse.stdout + worse.stderr).toBe(1)
  expect(worse.stdout).toContain('digline costed regressed')
  expect(worse.stdout).toMatch(/regressed cost per case \+\d+\.\d% per case, 95% interval \[\+\d+\.\d%, \+\d+\.\d%\] over 12 shared cases \(tolerance \+10\.0%\)/)

  // a copy of the project with costed alone, its prices removed
  const alone = copyProject(project)
  rmSync(join(alone.dir, 'evals', 'gated.eval.ts'))
  alone.write('evals/costed.eval.ts', costedSuite(''))
  const before = callLines(alone).length
  const refused = await alone.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T13:00:00.000001Z' })
  expect(refused.code).toBe(64)
  expect(refused.stdout + refused.stderr).toContain('tolerances.costPerCase needs `prices`')
  expect(callLines(alone).length).toBe(before)
})
