import type { Interval } from '../document/schema.js'

/** The z of a two-sided 95% interval, as AGGREGATE_DEFINITIONS names it. */
export const Z95 = 1.959964

/** Wilson score interval for `successes` out of `trials`; undefined when there are no trials. */
export function wilson(successes: number, trials: number, z: number = Z95): Interval | undefined {
  if (trials <= 0) return undefined
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const center = (p + z2 / (2 * trials)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))
  return { low: clampUnit(center - half), high: clampUnit(center + half) }
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value))
}
