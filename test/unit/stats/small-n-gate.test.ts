// Issue 28, small n: the pass/fail gate is the exact McNemar (sign) test on the discordant cases,
// checked here against an exact binomial written independently (BigInt binomial coefficients), and
// an A/A rate at or below 2.5% at every size, computed exactly by enumerating the flips.
import { describe, expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { binomialAtLeast, studentQuantile } from '../../../src/stats/distributions.js'
import { dropBeyond, tooFewToJudge } from '../../../src/stats/gate-rule.js'
import { passFailDifference, pairedDifference } from '../../../src/stats/paired-difference.js'
import { MIN_FLIPPED, passFailInterval } from '../../../src/stats/paired-pass-fail.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

/** C(n, k) exactly. */
function choose(n: number, k: number): bigint {
  let out = 1n
  for (let i = 1; i <= k; i++) out = (out * BigInt(n - k + i)) / BigInt(i)
  return out
}

/** The one-sided exact sign-test p: P(B ≥ b) for B ~ Binomial(m, ½), from exact integer counts. */
function signTestP(b: number, m: number): number {
  let hits = 0n
  for (let k = b; k <= m; k++) hits += choose(m, k)
  return Number((hits * 10n ** 15n) / 2n ** BigInt(m)) / 1e15
}

const flips = (toFail: number, toPass: number, n: number): number[] => [...Array(toFail).fill(-1), ...Array(toPass).fill(1), ...Array(n - toFail - toPass).fill(0)]

describe('the pass/fail gate is the exact sign test', () => {
  test('2 of 2 flipped to fail (p = 0.25) and 3 of 5 (p = 0.125) do not fail the build; they are too few to judge', () => {
    for (const [b, n] of [
      [2, 2],
      [3, 5],
    ] as const) {
      const d = passFailDifference(flips(b, 0, n))!
      expect(dropBeyond(d.ci95!, 0)).toBe(false)
      expect(tooFewToJudge(d, 0)).toBe(true)
    }
    expect(signTestP(2, 2)).toBe(0.25)
    expect(signTestP(3, 3)).toBe(0.125)
  })

  test('on every table up to 40 flipped cases, the exact interval (tolerance 0) fires exactly when the independent sign test gives p ≤ 2.5%, and the gate never fires otherwise', () => {
    for (let m = 1; m <= 40; m++) {
      for (let b = 0; b <= m; b++) {
        const n = m + 7
        const significant = signTestP(b, m) <= 0.025
        expect(dropBeyond(passFailInterval(b, m - b, n), 0), `b = ${b} of m = ${m}`).toBe(significant)
        const gate = passFailDifference(flips(b, m - b, n))!
        if (!significant) expect(dropBeyond(gate.ci95!, 0), `b = ${b} of m = ${m}`).toBe(false)
      }
    }
  })

  test('6 flips all to fail is the smallest table that can fail; the interval ends match Clopper–Pearson', () => {
    expect(MIN_FLIPPED).toBe(6)
    expect(dropBeyond(passFailInterval(6, 0, 20), 0)).toBe(true)
    expect(dropBeyond(passFailInterval(5, 0, 20), 0)).toBe(false)
    // 6 of 6: the Clopper–Pearson low bound of θ is 0.025^(1/6); Δ high = (6/20)(1 − 2·θL).
    expect(passFailInterval(6, 0, 20).high).toBeCloseTo(0.3 * (1 - 2 * 0.025 ** (1 / 6)), 9)
    // The bound solves the binomial tail: P(B ≥ 6 | θL) = 2.5%.
    expect(binomialAtLeast(6, 6, 0.025 ** (1 / 6))).toBeCloseTo(0.025, 12)
  })

  test('A/A false alarms are at most 2.5% at n = 5, 10, 20, 50 and 300, computed exactly over every number of flips', () => {
    // An unchanged system: each case flips to fail with chance q, to pass with chance q (q = 0.15).
    const q = 0.15
    for (const n of [5, 10, 20, 50, 300]) {
      let alarm = 0
      const lnFact = (k: number): number => {
        let s = 0
        for (let i = 2; i <= k; i++) s += Math.log(i)
        return s
      }
      const facts = Array.from({ length: n + 1 }, (_, k) => lnFact(k))
      for (let b = 0; b <= n; b++)
        for (let c = 0; b + c <= n; c++) {
          if (!dropBeyond(passFailDifference(flips(b, c, n))!.ci95!, 0)) continue
          alarm += Math.exp(facts[n]! - facts[b]! - facts[c]! - facts[n - b - c]! + (b + c) * Math.log(q) + (n - b - c) * Math.log(1 - 2 * q))
        }
      expect(alarm, `n = ${n}`).toBeLessThanOrEqual(0.025)
    }
  })

  test('scores use a t quantile with n − 1 degrees of freedom (t(4) = 2.776, t(19) = 2.093)', () => {
    expect(studentQuantile(0.975, 4)).toBeCloseTo(2.776445, 5)
    expect(studentQuantile(0.975, 19)).toBeCloseTo(2.093024, 5)
    expect(studentQuantile(0.975, 1)).toBeCloseTo(12.7062, 3)
    const d = pairedDifference([-0.5, -0.2, 0, -0.4, -0.1])!
    expect(d.ci95!.high).toBeCloseTo(d.mean + 2.776445 * d.se!, 5)
  })
})

function run(verdicts: string, createdAt: string): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.results = [...verdicts].map((v, i): CaseResult => ({
    case_id: `c${i}`,
    verdict: v === 'p' ? 'pass' : 'fail',
    score: v === 'p' ? 1 : 0,
    passed_samples: v === 'p' ? 1 : 0,
    reason: null,
    error: null,
    samples: [],
  }))
  doc.rules = { ...doc.rules, thresholds: {}, tolerances: {} }
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

test('compareRuns: 2 of 2 cases flipping to fail does not regress; it says there are too few cases to judge a drop of this size', () => {
  const before = run('pp', '2026-11-29T10:00:00.000001Z')
  const c = compareRuns(baselineOf(before, keyOf(before), '2026-11-29T12:00:00.000001Z'), run('ff', '2026-11-30T10:00:00.000001Z'))
  expect(c.regressed).toBe(false)
  expect(c.warnings.join('\n')).toMatch(/too few cases to judge a drop of this size/)
  expect(c.difference!.method).toBe('exact')
})
