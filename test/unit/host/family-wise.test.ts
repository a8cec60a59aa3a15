// ADR 0242: one launch-wide false-alarm budget. Fixed tables of flipped cases, each gate's p-value
// checked against the exact binomial tail written out by hand, and Holm's step-down done by hand.
import { describe, expect, test } from 'vitest'
import { drawRun } from '../../../bench/lib/regression-simulation.js'
import { baselineOf } from '../../../src/document/baseline.js'
import { SCHEMA_VERSION } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { describeFamily, familyWise } from '../../../src/host/judge/family-wise.js'
import { outcomeOf, type SuiteOutcome } from '../../../src/host/judge/suite-outcome.js'
import { dropBeyond } from '../../../src/stats/gate-rule.js'
import { dropPValue } from '../../../src/stats/gate-p-value.js'
import { passFailDifference } from '../../../src/stats/paired-difference.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { keyFor } from '../../../src/suite/keys.js'

const digline = { SCHEMA_VERSION, aggregate }

/** A suite of n cases (the last 10 failing in the baseline) whose run flips `toFail` passing cases to fail and `toPass` failing ones to pass. */
function outcome(suite: string, n: number, toFail: number, toPass: number): SuiteOutcome {
  const base = Array.from({ length: n }, (_, i) => (i >= n - 10 ? 0 : 1))
  const after = base.map((p, i) => (i < toFail ? 0 : i >= n - 10 && i < n - 10 + toPass ? 1 : p))
  const random = seededRandom(1)
  const b = { ...drawRun(digline, base, random, 0, '2026-01-01T00:00:00.000000Z'), suite }
  const r = { ...drawRun(digline, after, random, 0, '2026-01-02T00:00:00.000000Z'), suite }
  const comparison = compareRuns(baselineOf(b, keyFor(b.created_at, b.config_hash), '2026-01-01T12:00:00.000000Z'), r)
  return outcomeOf(
    { document: r, stored: { tenant: r.tenant, suite, key: keyFor(r.created_at, r.config_hash), location: `/tmp/${suite}` }, thresholds: { met: true, misses: [] } },
    comparison,
  )
}

/** P(X ≥ k) for X ~ Binomial(m, 1/2), summed term by term. */
function signTail(k: number, m: number): number {
  let sum = 0
  let choose = 1
  for (let j = 0; j <= m; j++) {
    if (j >= k) sum += choose
    choose = (choose * (m - j)) / (j + 1)
  }
  return sum / 2 ** m
}

describe('the p-value of the pass-rate gate', () => {
  test('is the exact sign test where it binds: 6 of 20 to fail is 1/64; 8 to fail, 1 to pass of 100 is 10/512', () => {
    const d = (b: number, c: number, n: number) => passFailDifference([...Array(b).fill(-1), ...Array(c).fill(1), ...Array(n - b - c).fill(0)])!
    expect(dropPValue(d(6, 0, 20), 0)).toBeCloseTo(signTail(6, 6), 12)
    expect(signTail(6, 6)).toBe(1 / 64)
    expect(dropPValue(d(8, 1, 100), 0)).toBeCloseTo(10 / 512, 12)
    expect(dropPValue(d(9, 0, 100), 0)).toBeCloseTo(1 / 512, 12)
  })

  test('fires below 2.5% exactly when the 95% interval lies below the tolerance, for every table of 30 cases', () => {
    for (const tolerance of [0, 0.05])
      for (let b = 0; b <= 30; b++)
        for (let c = 0; b + c <= 30; c++) {
          const d = passFailDifference([...Array(b).fill(-1), ...Array(c).fill(1), ...Array(30 - b - c).fill(0)])!
          expect(dropPValue(d, tolerance) < 0.025, `${b} to fail, ${c} to pass, tolerance ${tolerance}`).toBe(dropBeyond(d.ci95!, tolerance))
        }
  })
})

describe('Holm over a launch', () => {
  // p: A 1/512 = 0.00195, B 10/512 = 0.0195, C 1/64 = 0.0156. Each fires alone (p < 0.025).
  // Holm, m = 3: A 0.00195 < 0.025/3 rejects; next C 0.0156 is not < 0.025/2, so C and B hold.
  const launch = [outcome('a', 100, 9, 0), outcome('b', 100, 8, 1), outcome('c', 100, 6, 0)]

  test('every suite regresses alone', () => {
    expect(launch.map((o) => o.status)).toEqual(['regressed', 'regressed', 'regressed'])
  })

  test("'none' keeps them, and says the chance an unchanged launch fails: 1 − 0.975³ = 7.3%", () => {
    const { outcomes, family } = familyWise(launch, 'none')
    expect(outcomes.map((o) => o.status)).toEqual(['regressed', 'regressed', 'regressed'])
    expect(family.unchanged_fails).toBeCloseTo(1 - 0.975 ** 3, 12)
    expect(describeFamily(family)).toContain('an unchanged project fails some gate in up to 7.3% of launches')
  })

  test('holm regresses a, holds b and c, names why, and shows the interval at the level each was held to', () => {
    const { outcomes, family } = familyWise(launch, 'holm')
    expect(outcomes.map((o) => o.status)).toEqual(['regressed', 'held', 'held'])
    expect(family.gates.map((g) => [g.suite, g.level])).toEqual([
      ['a', 0.025 / 3],
      ['b', 0.025],
      ['c', 0.025 / 2],
    ])
    expect(outcomes[1]!.comparison!.warnings.at(-1)).toContain('would regress on its own (p = 0.020), but not under the launch')
    expect(outcomes[1]!.comparison!.regressed).toBe(false)
    // a's interval at one-sided 0.025/3 is wider than its 95% interval, and still below zero
    const a = family.gates[0]!
    const ci95 = launch[0]!.comparison!.status === 'compared' ? launch[0]!.comparison!.difference!.ci95! : null
    expect(a.adjusted!.low).toBeLessThan(ci95!.low)
    expect(a.adjusted!.high).toBeGreaterThan(ci95!.high)
    expect(a.adjusted!.high).toBeLessThan(0)
    expect(describeFamily(family)).toContain('Holm over 3 gates of 3 suites')
  })

  test('a launch of one suite with one gate is judged as before', () => {
    const { outcomes } = familyWise([launch[2]!], 'holm')
    expect(outcomes[0]!.status).toBe('regressed')
  })
})
