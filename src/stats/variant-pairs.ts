// Every pair of a suite's variants, judged on the cases both judged (ADR 0301). Of the n shared
// cases, only those where one variant passes and the other fails say which is better; given how many
// there are, the split between them is Binomial(m, ½) when the two are equally good. The verdict is
// the exact two-sided sign (McNemar) test, read off the exact conditional interval of the paired
// difference (paired-pass-fail.ts) at a level adjusted by Bonferroni for the number of pairs: with k
// pairs each side gets 2.5%/k, so among variants that are all equally good, a difference is claimed
// for any pair at most 5% of the time, and for a given pair at most 5%/k.
import { ALPHA, passFailInterval } from './paired-pass-fail.js'

export type PairVerdict = 'a_better' | 'no_difference' | 'b_better'

export interface PairDecision {
  /** Cases both variants judged. */
  shared: number
  /** Shared cases that A passed and B failed, and the other way round. */
  a_only: number
  b_only: number
  /** The paired difference of pass rates, A minus B: (a_only − b_only) / shared. */
  difference: number
  /** Its interval at the adjusted level. */
  interval: { low: number; high: number }
  verdict: PairVerdict
}

/** How many pairs k variants make. */
export function pairCount(variants: number): number {
  return (variants * (variants - 1)) / 2
}

/** The two-sided level of each pair's interval among `pairs` pairs (Bonferroni): 0.95 for one pair. */
export function pairLevel(pairs: number): number {
  return 1 - (2 * ALPHA) / Math.max(1, pairs)
}

/** One pair's decision among `pairs` pairs. */
export function decidePair(aOnly: number, bOnly: number, shared: number, pairs: number): PairDecision {
  const interval = shared === 0 ? { low: 0, high: 0 } : passFailInterval(bOnly, aOnly, shared, ALPHA / Math.max(1, pairs))
  const verdict: PairVerdict = interval.low > 0 ? 'a_better' : interval.high < 0 ? 'b_better' : 'no_difference'
  return { shared, a_only: aOnly, b_only: bOnly, difference: shared === 0 ? 0 : (aOnly - bOnly) / shared, interval, verdict }
}
