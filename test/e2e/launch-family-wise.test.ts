// ADR 0242 with real processes: one launch gates two suites that each regress alone (6 of 100 flip
// to fail, p = 1/64; 8 to fail and 1 to pass, p = 10/512). Holm over the launch holds both
// (0.0156 is not below 0.025/2): exit 0, each suite saying why. With familyWise: 'none' both regress.
import { expect, test } from 'vitest'
import { countingSuite, defaultConfig, makeProject } from '../helpers/project.js'

const A = countingSuite({ name: 'a', cases: 100, answer: "process.env.WORSE && i < 6 ? 'no' : 'ok-' + i" })
const B = countingSuite({ name: 'b', cases: 100, answer: "(process.env.WORSE ? i < 8 : i === 99) ? 'no' : 'ok-' + i" })

test("a launch of two suites that each regress alone: Holm holds both (exit 0, said per suite and for the launch); familyWise 'none' fails it", { timeout: 400_000 }, async () => {
  const project = makeProject({ 'evals/a.eval.ts': A, 'evals/b.eval.ts': B })
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-01T00:00:00.000001Z' })).code).toBe(0)
  for (const suite of ['a', 'b']) {
    const key = project.runFiles('acme', suite)[0]!.replace(/\.json$/, '')
    expect((await project.digline(['promote', '--suite', suite, '--run', key])).code).toBe(0)
  }
  const held = await project.vitest(['--reporter=default', '--reporter=json', '--outputFile.json=report.json'], { WORSE: '1', DIGLINE_CREATED_AT: '2026-01-02T00:00:00.000001Z' })
  expect(held.code, held.stdout).toBe(0)
  // the verdict tests of the held suites pass, as their verdicts say (ADR 0418), in Vitest's own summary too
  const json = JSON.parse(project.read('report.json')) as { testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] }
  const verdicts = json.testResults.flatMap((r) => r.assertionResults).filter((a) => a.title === 'digline verdict')
  expect(verdicts.map((v) => [v.status, v.failureMessages])).toEqual([
    ['passed', []],
    ['passed', []],
  ])
  expect(held.stdout + held.stderr).not.toContain('SuiteNotHeldError')
  expect(held.stdout).toContain('the pass rate gate would regress on its own (p = 0.016), but not under the launch')
  expect(held.stdout).toContain('the pass rate gate would regress on its own (p = 0.020), but not under the launch')
  expect(held.stdout).toContain('launch-wide: Holm over 2 gates of 2 suites keeps the chance that an unchanged project fails anywhere at 2.5%')
  expect(held.stdout).toContain('digline exit 0')

  project.write('vitest.config.ts', defaultConfig('acme', ", familyWise: 'none'"))
  const alone = await project.vitest([], { WORSE: '1', DIGLINE_CREATED_AT: '2026-01-03T00:00:00.000001Z' })
  expect(alone.code, alone.stdout).toBe(1)
  expect(alone.stdout).toContain('digline a regressed')
  expect(alone.stdout).toContain('digline b regressed')
  expect(alone.stdout + alone.stderr).toContain('SuiteNotHeldError: suite a regressed against its baseline')
  expect(alone.stdout).toContain("launch-wide: familyWise 'none': 2 gates of 2 suites each fire at 2.5% alone, so an unchanged project fails some gate in up to 4.9% of launches")
})
