// ADR 0301: the pairwise verdict among a suite's variants. The rule (the exact conditional interval
// at a Bonferroni-adjusted level) is checked on fixed tables against an independent computation: the
// exact two-sided sign test, with the binomial tail summed in integers (BigInt), no floating point.
import { describe, expect, test } from 'vitest'
import { decidePair, pairCount, pairLevel, type PairVerdict } from '../../../src/stats/variant-pairs.js'

function choose(n: number, k: number): bigint {
  let r = 1n
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1)
  return r
}

/** P(Bin(m, ½) ≤ k) < 2.5% / pairs, decided exactly: 40 · pairs · Σ C(m, i) < 2^m. */
function tailBelow(k: number, m: number, pairs: number): boolean {
  let sum = 0n
  for (let i = 0; i <= k; i++) sum += choose(m, i)
  return 40n * BigInt(pairs) * sum < 2n ** BigInt(m)
}

function exactVerdict(aOnly: number, bOnly: number, pairs: number): PairVerdict {
  const m = aOnly + bOnly
  if (m === 0) return 'no_difference'
  if (tailBelow(bOnly, m, pairs)) return 'a_better'
  if (tailBelow(aOnly, m, pairs)) return 'b_better'
  return 'no_difference'
}

describe('the verdict of a pair of variants', () => {
  test('agrees with the exact sign test at the Bonferroni level on every table up to 60 discordant cases, for 1, 3 and 6 pairs', () => {
    let claimed = 0
    for (const pairs of [1, 3, 6]) {
      for (let m = 0; m <= 60; m++) {
        for (let aOnly = 0; aOnly <= m; aOnly++) {
          const bOnly = m - aOnly
          const decided = decidePair(aOnly, bOnly, 80, pairs)
          expect({ pairs, aOnly, bOnly, verdict: decided.verdict }).toEqual({ pairs, aOnly, bOnly, verdict: exactVerdict(aOnly, bOnly, pairs) })
          if (decided.verdict !== 'no_difference') claimed++
        }
      }
    }
    // the rule is not vacuous: it claims differences on many of these tables
    expect(claimed).toBeGreaterThan(500)
  })

  test('fixed tables: the verdicts, differences and the adjusted level, written out', () => {
    // 80 shared cases; 3 pairs: each side at 2.5%/3
    expect(pairLevel(pairCount(3))).toBeCloseTo(1 - 0.05 / 3, 12)
    expect(pairLevel(1)).toBeCloseTo(0.95, 12)
    const clear = decidePair(20, 2, 80, 3)
    expect(clear.verdict).toBe('a_better')
    expect(clear.difference).toBeCloseTo(18 / 80, 12)
    expect(clear.interval.low).toBeGreaterThan(0)
    expect(decidePair(2, 20, 80, 3).verdict).toBe('b_better')
    // 9 to 1: P(X ≤ 1) = 11/1024 ≈ 1.1%, below 2.5% (one pair) and above 2.5%/3 ≈ 0.83% (three pairs)
    expect(decidePair(9, 1, 80, 1).verdict).toBe('a_better')
    expect(decidePair(9, 1, 80, 3).verdict).toBe('no_difference')
    expect(decidePair(0, 0, 80, 3)).toMatchObject({ verdict: 'no_difference', difference: 0, interval: { low: 0, high: 0 } })
  })

  test('the interval widens as the number of pairs grows', () => {
    const one = decidePair(12, 4, 60, 1).interval
    const six = decidePair(12, 4, 60, 6).interval
    expect(six.low).toBeLessThan(one.low)
    expect(six.high).toBeGreaterThan(one.high)
  })
})
