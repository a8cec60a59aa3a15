// `digline plan` with real processes: refused without a baseline (naming digline promote) and for
// bad numbers; after a promotion, a seeded plan that prints its seed and repeats itself exactly.
import { expect, test } from 'vitest'
import { countingSuite, makeProject } from '../helpers/project.js'

// Samples disagree on some cases (a deterministic pattern over case and sample), so the plan has spread to work with.
const SUITE = countingSuite({ name: 's', cases: 40, samples: 3, minAgreement: 0.6, answer: "(i * 7 + sample * 3) % 5 === 0 || i % 10 === 0 ? 'no' : 'ok-' + i" })

test('plan: no baseline is refused (64) naming digline promote; then a seeded plan, text and JSON; bad numbers are refused', async () => {
  const project = makeProject({ 'evals/s.eval.ts': SUITE })
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-01T00:00:00.000001Z' })).code).toBe(0)

  const none = await project.digline(['plan', '--suite', 's', '--detect', '0.1'])
  expect(none.code).toBe(64)
  expect(none.stderr).toContain('NoBaselineError')
  expect(none.stderr).toContain('digline promote --suite s --run KEY')

  const key = project.runFiles('acme', 's')[0]!.replace(/\.json$/, '')
  expect((await project.digline(['promote', '--suite', 's', '--run', key])).code).toBe(0)

  const text = await project.digline(['plan', '--suite', 's', '--detect', '0.1', '--seed', '7'])
  expect(text.code, text.stderr).toBe(0)
  expect(text.stdout).toContain('digline plan s: catching a drop of 10.0 points in 80.0% of runs')
  expect(text.stdout).toContain(`from baseline ${key}: 40 cases, 3 sample(s) each, minAgreement 0.6 (2 of 3 samples)`)
  expect(text.stdout).toContain('seed 7, 1000 simulated baseline/run pairs per figure')
  expect(text.stdout).toMatch(/gate +samples +cases needed +closed form +calls +power +rechecked +false alarm/)
  expect(text.stdout).toContain('tokens per case: not simulated')

  const json = await project.digline(['plan', '--suite', 's', '--detect', '0.1', '--power', '0.9', '--json'])
  expect(json.code, json.stderr).toBe(0)
  const plan = JSON.parse(json.stdout)
  expect(plan).toMatchObject({ suite: 's', baseline: key, seed: 42, detect: 0.1, power: 0.9, evidence: { runs: 1, cases: 40, samples: 3 } })
  expect(plan.options.map((r: { gate: string; samples: number }) => `${r.gate} ${r.samples}`)).toEqual(['verdicts 1', 'verdicts 3', 'verdicts 5', 'samples 3', 'samples 5'])
  for (const row of plan.options) if (row.cases !== null) expect(row.rechecked_power).toBeGreaterThanOrEqual(0.9)
  const again = await project.digline(['plan', '--suite', 's', '--detect', '0.1', '--power', '0.9', '--json'])
  expect(again.stdout).toBe(json.stdout)

  for (const args of [['--detect', '1.5'], ['--detect', 'abc'], ['--detect', '0.1', '--power', '0'], ['--detect', '0.1', '--seed', '-1'], ['--detect', '0.95'], []]) {
    const bad = await project.digline(['plan', '--suite', 's', ...args])
    expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(64)
    expect(bad.stderr).toContain('UsageError')
  }
})
