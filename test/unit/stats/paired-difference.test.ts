// The paired difference and its interval, against numbers worked by hand.
import { expect, test } from 'vitest'
import { pairCases, pairedDifference } from '../../../src/stats/paired-difference.js'
import type { CaseResult } from '../../../src/document/schema.js'

const result = (case_id: string, verdict: CaseResult['verdict']): CaseResult => ({
  case_id,
  verdict,
  score: verdict === 'error' ? null : verdict === 'pass' ? 1 : 0,
  passed_samples: verdict === 'pass' ? 1 : 0,
  reason: null,
  error: verdict === 'error' ? { cause: 'target', message: 'boom' } : null,
  samples: [],
})

test('20 shared cases, 6 flipped to fail: −30 points, SE = sd/√n, interval mean ± t(19)·SE', () => {
  const d = [...Array(6).fill(-1), ...Array(14).fill(0)]
  const diff = pairedDifference(d)!
  expect(diff.n).toBe(20)
  expect(diff.mean).toBeCloseTo(-0.3, 12)
  // Σ(d − d̄)² = 6·0.49 + 14·0.09 = 4.2; sd = √(4.2/19)
  expect(diff.sd).toBeCloseTo(Math.sqrt(4.2 / 19), 12)
  expect(diff.se).toBeCloseTo(Math.sqrt(4.2 / 19) / Math.sqrt(20), 12)
  expect(diff.ci95!.low).toBeCloseTo(-0.3 - 2.093024 * diff.se!, 6)
  expect(diff.ci95!.high).toBeCloseTo(-0.08, 3)
})

test('no change at all: a zero interval; every case flipped: a degenerate interval at −1', () => {
  expect(pairedDifference([0, 0, 0])!.ci95).toEqual({ low: 0, high: 0 })
  expect(pairedDifference([-1, -1])!.ci95).toEqual({ low: -1, high: -1 })
})

test('one pair has no interval, no pair has no difference', () => {
  expect(pairedDifference([-1])).toMatchObject({ n: 1, mean: -1, sd: null, se: null, ci95: null })
  expect(pairedDifference([])).toBeUndefined()
})

test('the interval is clamped to [−1, 1]', () => {
  const diff = pairedDifference([-1, -1, -1, 1])!
  expect(diff.ci95!.low).toBe(-1)
})

test('cases pair by id; added, removed and errored-in-either are kept apart', () => {
  const baseline = [result('a', 'pass'), result('b', 'pass'), result('c', 'error'), result('gone', 'pass'), result('d', 'fail')]
  const run = [result('d', 'pass'), result('a', 'fail'), result('b', 'error'), result('c', 'pass'), result('new', 'pass')]
  const pairing = pairCases(baseline, run)
  expect(pairing.shared).toEqual(['d', 'a'])
  expect(pairing.erroredEither).toEqual(['b', 'c'])
  expect(pairing.added).toEqual(['new'])
  expect(pairing.removed).toEqual(['gone'])
  expect(pairing.pairs.map(([b, r]) => `${b.case_id}:${b.verdict}->${r.verdict}`)).toEqual(['d:fail->pass', 'a:pass->fail'])
})

test('pairs a repeated id with the baseline’s last result of it, whether or not both runs list the ids in one order', () => {
  const baseline = [result('a', 'fail'), result('b', 'pass'), result('a', 'pass')]
  for (const run of [
    [result('a', 'pass'), result('b', 'fail'), result('a', 'pass')],
    [result('b', 'fail'), result('a', 'pass')],
  ]) {
    const pairing = pairCases(baseline, run)
    expect(pairing.removed).toEqual([])
    expect(pairing.pairs.map(([b, r]) => `${b.case_id}:${b.verdict}->${r.verdict}`)).toEqual(run.map((r) => `${r.case_id}:pass->${r.verdict}`))
  }
  expect(pairCases(baseline, [result('b', 'pass'), result('c', 'pass'), result('a', 'pass')]).removed).toEqual([])
  expect(pairCases(baseline, [result('a', 'pass'), result('c', 'pass'), result('x', 'pass')]).removed).toEqual(['b'])
})
