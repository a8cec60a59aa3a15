// The one rule every gate judges by (ADR 0010, ADR 0065, ADR 0120): a change counts only when its
// whole 95% interval lies beyond the tolerance. The comparison and `digline plan`'s simulation both call it.
import type { Interval, PairedDifference } from './paired-difference.js'
import { passFailInterval } from './paired-pass-fail.js'

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

/**
 * The run dropped by more than the tolerance, yet so few cases flipped that even had every one of
 * them gone pass → fail the gate could not tell the drop from noise: the gate cannot judge it,
 * which is not the same as "it held" (ADR 0120). Only for pass/fail differences.
 */
export function tooFewToJudge(d: PairedDifference, tolerance: number): boolean {
  if (d.discordant === undefined || d.n < 1 || !(d.mean < -tolerance - FLOAT_SLACK)) return false
  const flipped = d.discordant.to_fail + d.discordant.to_pass
  return !dropBeyond(passFailInterval(flipped, 0, d.n), tolerance)
}
