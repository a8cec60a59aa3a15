// The one rule every gate judges by (ADR 0010, ADR 0065): a change counts only when its whole 95%
// interval lies beyond the tolerance. The comparison and `digline plan`'s simulation both call it.
import type { Interval } from './paired-difference.js'

// The bounds are sums of floats; an exact tie with the tolerance is not a regression.
const FLOAT_SLACK = 1e-9

/** A drop (pass rate, mean score): the interval's top lies below −tolerance. */
export function dropBeyond(ci95: Interval, tolerance: number): boolean {
  return ci95.high < -tolerance - FLOAT_SLACK
}

/** A rise (cost, tokens, latency; relative to the baseline): the interval's bottom lies above +tolerance. */
export function riseBeyond(ci95: Interval, tolerance: number): boolean {
  return ci95.low > tolerance + FLOAT_SLACK
}
