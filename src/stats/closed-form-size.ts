// Miller's closed-form sample size for a paired difference (Miller 2024, "Adding Error Bars to
// Evals", §5): to catch a drop δ beyond the tolerance τ with power 1 − β at one-sided level α, a run
// needs n = ((z_α + z_β) · σ_d / (δ − τ))² cases, σ_d the standard deviation of one case's paired
// difference under the drop. It assumes the normal approximation the gate no longer uses at small n,
// so `digline plan` prints it beside its simulation, not instead of it.
import { normalQuantile } from './distributions.js'
import { ALPHA } from './paired-pass-fail.js'

/** The cases n, rounded up; null when the drop does not exceed the tolerance. */
export function millerCases(sdOfDifference: number, detect: number, tolerance: number, power: number): number | null {
  if (!(detect > tolerance)) return null
  const z = normalQuantile(1 - ALPHA) + normalQuantile(power)
  return Math.max(2, Math.ceil(((z * sdOfDifference) / (detect - tolerance)) ** 2))
}

/** The smallest drop n cases catch with that power: δ = τ + (z_α + z_β) · σ_d(δ) / √n, by fixed-point iteration (σ_d depends on δ). */
export function millerDetectable(sdAt: (detect: number) => number, cases: number, tolerance: number, power: number, largest: number): number | null {
  const z = normalQuantile(1 - ALPHA) + normalQuantile(power)
  let detect = tolerance + 0.01
  for (let i = 0; i < 100; i++) {
    const next = tolerance + (z * sdAt(Math.min(detect, largest))) / Math.sqrt(cases)
    if (Math.abs(next - detect) < 1e-7) return next > largest ? null : next
    detect = next
  }
  return detect > largest ? null : detect
}
