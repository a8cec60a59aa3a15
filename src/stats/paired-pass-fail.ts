// The exact interval for the paired difference of two runs' pass rates (ADR 0120). Only the
// discordant cases carry information about the change: of the m cases that flipped, b went
// pass → fail and c fail → pass, and given m, b is Binomial(m, θ) with θ = P(to fail | flipped). The
// Clopper–Pearson bounds on θ, scaled by the share of cases that flipped (m / n), bound the
// difference Δ = (m / n)(1 − 2θ). With a tolerance of zero, "the whole interval lies below zero" is
// exactly the one-sided exact McNemar (sign) test at 2.5%, so an unchanged system is flagged at most
// 2.5% of the time at every n; a positive tolerance only raises the bar.
import { clopperPearson } from './distributions.js'

interface Interval {
  low: number
  high: number
}

/** One side's level of the 95% interval. */
export const ALPHA = 0.025

/**
 * The interval of (c − b) / n, for b cases pass → fail and c fail → pass among n shared cases: 95%
 * by default, or with `alpha` on each side (a multiplicity-adjusted level, ADR 0301).
 */
export function passFailInterval(toFail: number, toPass: number, n: number, alpha: number = ALPHA): Interval {
  const flipped = toFail + toPass
  if (flipped === 0) return { low: 0, high: 0 }
  const [low, high] = clopperPearson(toFail, flipped, alpha)
  const share = flipped / n
  return { low: share * (1 - 2 * high), high: share * (1 - 2 * low) }
}

/** The fewest flipped cases among which a drop can be judged at all: all of them to fail, 0.5^m ≤ 2.5%. */
export const MIN_FLIPPED = Math.ceil(Math.log(ALPHA) / Math.log(0.5))
