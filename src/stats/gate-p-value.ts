// The one-sided p-value of each gate's test (ADR 0242): the smallest one-sided level at which the
// gate's own interval would lie wholly beyond its tolerance. A gate fires at 2.5% exactly when its p
// is below 0.025, so a launch can share one false-alarm budget among its gates (Holm) and show each
// gate's interval at the level it was held to.
import { binomialAtLeast, clopperPearson, studentCdf, studentQuantile } from './distributions.js'
import type { Interval, PairedDifference } from './paired-difference.js'

/** p of "the run dropped by more than `tolerance`" for a paired difference (pass rate, share, score). */
export function dropPValue(d: PairedDifference, tolerance: number): number {
  const t = tPValue(d.clusters ?? d.n, d.mean + tolerance, d.se)
  if (d.method !== 'exact' || d.discordant === undefined) return t
  const { to_fail: b, to_pass: c } = d.discordant
  const m = b + c
  if (m === 0) return Math.max(t, 1)
  // high = (m/n)(1 − 2θL) < −τ  ⟺  θL > θ0 = (1 + τn/m)/2  ⟺  P_θ0(X ≥ b) < level (Clopper–Pearson)
  const theta0 = (1 + (tolerance * d.n) / m) / 2
  const exact = theta0 >= 1 ? 1 : binomialAtLeast(b, m, theta0)
  return Math.max(t, exact)
}

/** The chance, under a true change of exactly the tolerance, of a mean this far below it: P(T ≤ shift / se). */
function tPValue(n: number, shift: number, se: number | null): number {
  if (n < 2 || se === null) return 1
  if (se === 0) return shift < 0 ? 0 : 1
  return studentCdf(shift / se, n - 1)
}

/** p of "the amount rose by more than `tolerance`" from a log-ratio gate's mean and 95% interval over n cases. */
export function riseLogRatioPValue(n: number, mean: number, ci95: Interval, tolerance: number): number {
  if (n < 2) return 1
  const half = (Math.log1p(ci95.high) - Math.log1p(ci95.low)) / 2
  const se = half / studentQuantile(0.975, n - 1)
  return tPValue(n, Math.log1p(tolerance) - Math.log1p(mean), se)
}

/** A paired difference's interval at one-sided level `level` each side (the 95% interval is level 0.025). */
export function dropIntervalAt(d: PairedDifference, level: number): Interval | null {
  const df = (d.clusters ?? d.n) - 1
  if (d.se === null || df < 1) return null
  const t = studentQuantile(1 - level, df)
  const spread = { low: Math.max(-1, d.mean - t * d.se), high: Math.min(1, d.mean + t * d.se) }
  if (d.method !== 'exact' || d.discordant === undefined) return spread
  const m = d.discordant.to_fail + d.discordant.to_pass
  if (m === 0) return spread
  const [low, high] = clopperPearson(d.discordant.to_fail, m, level)
  const share = m / d.n
  return { low: Math.min(spread.low, share * (1 - 2 * high)), high: Math.max(spread.high, share * (1 - 2 * low)) }
}

/** A log-ratio gate's interval (as relative rises) at one-sided level `level` each side. */
export function riseIntervalAt(n: number, mean: number, ci95: Interval, level: number): Interval | null {
  if (n < 2) return null
  const centre = Math.log1p(mean)
  const se = (Math.log1p(ci95.high) - Math.log1p(ci95.low)) / 2 / studentQuantile(0.975, n - 1)
  const half = studentQuantile(1 - level, n - 1) * se
  return { low: Math.expm1(centre - half), high: Math.expm1(centre + half) }
}
