// How often a gate fires, by seeded simulation: draw a baseline and a run of n cases from a case
// population, take the paired difference exactly as the comparison does, and apply the gate's own
// rule (gate-rule.ts). With the run drawn from the same population, the rate is the gate's false
// alarms (A/A); with a worse population, its power. `digline plan` (ADR 0066) runs on this.
import { dropBeyond, riseBeyond } from './gate-rule.js'
import { passFailInterval } from './paired-pass-fail.js'
import { t95 } from './distributions.js'
import type { Random } from './prng.js'

/** P(X ≥ required) for X ~ Binomial(samples, q): a case's chance to pass with that many samples. */
export function passChance(q: number, samples: number, required: number): number {
  if (q <= 0) return required <= 0 ? 1 : 0
  if (q >= 1) return required <= samples ? 1 : 0
  let total = 0
  let term = (1 - q) ** samples // P(X = 0), then P(X = x + 1) from P(X = x)
  for (let x = 0; x <= samples; x++) {
    if (x >= required) total += term
    term = (term * (samples - x) * q) / ((x + 1) * (1 - q))
  }
  return Math.min(1, Math.max(0, total))
}

export interface PassGateDraw {
  /** Per case of the population: its chance to pass in the baseline, and in the run. */
  base: readonly number[]
  run: readonly number[]
  /** Cases per simulated suite, drawn from the population with replacement. */
  cases: number
  repetitions: number
  /** The drop allowed (absolute). */
  tolerance: number
}

/** The share of repetitions the pass-rate gate flags. */
export function passGateRate(random: Random, draw: PassGateDraw): number {
  const population = draw.base.length
  let flagged = 0
  for (let rep = 0; rep < draw.repetitions; rep++) {
    let toFail = 0
    let toPass = 0
    for (let i = 0; i < draw.cases; i++) {
      const j = Math.floor(random() * population)
      const d = (random() < draw.run[j]! ? 1 : 0) - (random() < draw.base[j]! ? 1 : 0)
      if (d < 0) toFail++
      else if (d > 0) toPass++
    }
    if (draw.cases >= 2 && dropBeyond(passFailInterval(toFail, toPass, draw.cases), draw.tolerance) && dropBeyond(tInterval(toFail, toPass, draw.cases), draw.tolerance)) flagged++
  }
  return flagged / draw.repetitions
}

/** The t interval of a pass/fail difference from its counts alone (what passFailDifference hulls with the exact one). */
function tInterval(toFail: number, toPass: number, n: number): { low: number; high: number } {
  const mean = (toPass - toFail) / n
  const variance = (toPass * (1 - mean) ** 2 + toFail * (1 + mean) ** 2 + (n - toFail - toPass) * mean ** 2) / (n - 1)
  const half = t95(n - 1) * Math.sqrt(variance / n)
  return { low: Math.max(-1, mean - half), high: Math.min(1, mean + half) }
}

export interface AmountGateDraw {
  /** Per case of the population: its amount (cost, tokens, ms) in the baseline. */
  amounts: readonly number[]
  /** Observed ratios of one measurement to its case's mean (the per-run wobble); resampled. */
  wobble: readonly number[]
  /** Measurements averaged into one case's value (the samples per case when wobble is per sample). */
  perCase: number
  cases: number
  repetitions: number
  /** The run's amounts are the baseline's × (1 + rise). */
  rise: number
  /** The rise allowed (relative). */
  tolerance: number
}

/** The share of repetitions a relative amount gate flags. */
export function amountGateRate(random: Random, draw: AmountGateDraw): number {
  const population = draw.amounts.length
  const wobble = (): number => {
    let sum = 0
    for (let s = 0; s < draw.perCase; s++) sum += draw.wobble[Math.floor(random() * draw.wobble.length)]!
    return sum / draw.perCase
  }
  let flagged = 0
  for (let rep = 0; rep < draw.repetitions; rep++) {
    // The paired log-ratio of the gate (ADR 0121): each case against itself.
    let sum = 0
    let squares = 0
    let n = 0
    for (let i = 0; i < draw.cases; i++) {
      const amount = draw.amounts[Math.floor(random() * population)]!
      const before = amount * wobble()
      const after = amount * (1 + draw.rise) * wobble()
      if (!(before > 0 && after > 0)) continue
      const l = Math.log(after / before)
      sum += l
      squares += l * l
      n++
    }
    if (n < 2) continue
    const mean = sum / n
    const sd = Math.sqrt(Math.max(0, (squares - n * mean * mean) / (n - 1)))
    const half = (t95(n - 1) * sd) / Math.sqrt(n)
    if (riseBeyond({ low: Math.expm1(mean - half), high: Math.expm1(mean + half) }, draw.tolerance)) flagged++
  }
  return flagged / draw.repetitions
}

export interface ShareGateDraw {
  /** Per case of the population: its chance that one sample passes, in the baseline and in the run. */
  base: readonly number[]
  run: readonly number[]
  samples: number
  cases: number
  repetitions: number
  tolerance: number
}

/** Passed samples of `samples`, each passing with chance q. */
function binomialDraw(random: Random, samples: number, q: number): number {
  let passed = 0
  for (let s = 0; s < samples; s++) if (random() < q) passed++
  return passed
}

/** The share of repetitions the pass-rate gate on each case's share of passing samples flags (ADR 0122: a paired t interval). */
export function shareGateRate(random: Random, draw: ShareGateDraw): number {
  const population = draw.base.length
  let flagged = 0
  for (let rep = 0; rep < draw.repetitions; rep++) {
    let sum = 0
    let squares = 0
    for (let i = 0; i < draw.cases; i++) {
      const j = Math.floor(random() * population)
      const d = (binomialDraw(random, draw.samples, draw.run[j]!) - binomialDraw(random, draw.samples, draw.base[j]!)) / draw.samples
      sum += d
      squares += d * d
    }
    const n = draw.cases
    if (n < 2) continue
    const mean = sum / n
    const sd = Math.sqrt(Math.max(0, (squares - n * mean * mean) / (n - 1)))
    const half = (t95(n - 1) * sd) / Math.sqrt(n)
    if (dropBeyond({ low: Math.max(-1, mean - half), high: Math.min(1, mean + half) }, draw.tolerance)) flagged++
  }
  return flagged / draw.repetitions
}
