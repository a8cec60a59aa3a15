// `digline rejudge` through the real bin and a real Vitest: the recorded answers of a run judged again
// by a suite's scorers with no call to any target (counted), filed as a replay under that suite,
// chained, matched by case id into another suite, never promotable, and refused by name. The first
// replay and --into go through the bin; the chained replay, the promote and the refusals run the CLI's
// main() in-process (ADR 0470), whose `vitest list` is still a real process.
import { beforeAll, expect, test } from 'vitest'
import type { RunDocument } from '../../src/document/schema.js'
import { keyFor } from '../../src/suite/keys.js'
import { callLines } from '../helpers/kill.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'
import { inProcess } from './cli-in-process.js'

/** Cases c000…c005; the target answers 'ok-<i>' except case 2 ('nope'); two samples each. */
const caps = countingSuite({ name: 'caps', cases: 6, samples: 2, answer: "i === 2 ? 'nope' : 'ok-' + i", extra: 'recordResponses: true,' })
/** The same cases but c005, plus c009; judged by a stricter scorer (only answers ending in 1 or 3 pass). */
const strict = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'
evalSuite({
  name: 'strict',
  cases: ['c000', 'c001', 'c002', 'c003', 'c004', 'c009'].map((id) => ({ id, input: Number(id.slice(1)), expected: 'unused' })),
  target: async (i) => { appendFileSync('calls.log', 'strict:' + i + '\\n'); return 'ok-' + i },
  samples: 2,
  scorers: [scorers.regex(/[13]$/)],
  recordResponses: true,
})
`
const plain = countingSuite({ name: 'plain', cases: 2 })
const single = countingSuite({ name: 'single', cases: 6, samples: 1, extra: 'recordResponses: true,' })

let project: Project
let source: string

function doc(suite: string, key: string): RunDocument {
  return JSON.parse(project.read(`.digline/acme/runs/${suite}/${key}.json`)) as RunDocument
}

function filedKey(stdout: string): string {
  const match = /Filed replay (\S+) under suite/.exec(stdout)
  expect(match, stdout).not.toBeNull()
  return match![1]!
}

beforeAll(async () => {
  project = makeProject({ 'evals/caps.eval.ts': caps, 'evals/strict.eval.ts': strict, 'evals/plain.eval.ts': plain, 'evals/single.eval.ts': single })
  const first = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-20T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  source = project.runFiles('acme', 'caps')[0]!.replace('.json', '')
})

test('a replay calls no target, carries rejudged_from and its own created_at, and chains', async () => {
  const calls = callLines(project).length
  const result = await project.digline(['rejudge', '--suite', 'caps', '--run', source])
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(callLines(project).length).toBe(calls)
  expect(result.stderr).toContain(`re-judging run ${source} of suite caps: 6 case(s) × 2 sample(s) recorded = 0 calls to the target`)
  const replay = filedKey(result.stdout)
  const original = doc('caps', source)
  const judged = doc('caps', replay)
  expect(judged).toMatchObject({ rejudged_from: source, rejudged_from_suite: 'caps', config_hash: original.config_hash, target_config: original.target_config })
  expect(judged.created_at).not.toBe(original.created_at)
  expect(replay).toBe(keyFor(judged.created_at, judged.config_hash))
  expect(judged.results.map((r) => [r.case_id, r.verdict])).toEqual(original.results.map((r) => [r.case_id, r.verdict]))
  expect(judged.results.flatMap((r) => r.samples.map((s) => s.output))).toEqual(original.results.flatMap((r) => r.samples.map((s) => s.output)))
  expect(judged.observed.target_model).toBe(original.observed.target_model)

  const again = await inProcess(project, ['rejudge', '--suite', 'caps', '--run', replay])
  expect(again.code, again.stdout + again.stderr).toBe(0)
  const chained = doc('caps', filedKey(again.stdout))
  expect(chained).toMatchObject({ rejudged_from: replay, rejudged_from_suite: 'caps' })
  expect(callLines(project).length).toBe(calls)

  const promote = await inProcess(project, ['promote', '--suite', 'caps', '--run', replay])
  expect(promote.code).toBe(64)
  expect(promote.stderr).toContain('ReplayNotPromotableError')
})

test('--into T: judged by T’s scorers, matched by case id; T’s cases without an answer are left out, skipped in Vitest', async () => {
  const calls = callLines(project).length
  const result = await project.digline(['rejudge', '--suite', 'caps', '--run', source, '--into', 'strict'])
  expect(callLines(project).length).toBe(calls)
  expect(result.stderr).toContain('1 case(s) of strict have no recorded answer and are left out (c009)')
  expect(result.stderr).toContain('1 recorded case(s) that strict does not declare are not judged (c005)')
  const replay = doc('strict', filedKey(result.stdout))
  expect(replay).toMatchObject({ suite: 'strict', rejudged_from: source, rejudged_from_suite: 'caps' })
  expect(replay.results.map((r) => [r.case_id, r.verdict])).toEqual([
    ['c000', 'fail'],
    ['c001', 'pass'],
    ['c002', 'fail'],
    ['c003', 'pass'],
    ['c004', 'fail'],
  ])
  expect(result.code, result.stdout + result.stderr).toBe(0)
})

test('refused by name, with nothing filed: no recorded answers, a samples mismatch, an undeclared suite, an unknown key', async () => {
  const plainKey = project.runFiles('acme', 'plain')[0]!.replace('.json', '')
  const before = ['caps', 'strict', 'plain', 'single'].map((s) => project.runFiles('acme', s).length)
  const cases: [string[], string][] = [
    [['--suite', 'plain', '--run', plainKey], 'NoRecordedAnswersError'],
    [['--suite', 'caps', '--run', source, '--into', 'single'], 'ReplayMismatchError'],
    [['--suite', 'caps', '--run', source, '--into', 'nowhere'], 'SuiteNotDeclaredError'],
    [['--suite', 'caps', '--run', '20200101T000000000001Z-000000000000'], 'RunNotFoundError'],
  ]
  for (const [args, name] of cases) {
    // the samples mismatch is told by the `vitest run` the command starts, on the bin's own stderr
    const run = name === 'ReplayMismatchError' ? project.digline : (argv: string[]) => inProcess(project, argv)
    const result = await run(['rejudge', ...args])
    expect(result.code, `${name}\n${result.stdout}${result.stderr}`).toBe(64)
    expect(result.stdout + result.stderr).toContain(name)
  }
  expect(['caps', 'strict', 'plain', 'single'].map((s) => project.runFiles('acme', s).length)).toEqual(before)
})
