// What a suite's cases are like, from their passed samples (ADR 0241): each case passes a sample with
// its own chance q, and the q of the suite's cases spread as a Beta(μφ, (1 − μ)φ), fitted to the
// per-case counts by maximum likelihood (beta-binomial). A case's own chance is then known up to its
// posterior Beta(μφ + passed, (1 − μ)φ + failed). `digline plan` simulates cases drawn from those
// posteriors, so a case seen in three samples is neither taken at its observed share nor shrunk to
// a half, and a plan for five samples rests on how much the cases really vary between samples.
import { logGamma } from './distributions.js'
import type { Random } from './prng.js'

export interface CaseCounts {
  passed: number
  samples: number
}

export interface BetaPrior {
  /** The mean chance μ of a sample to pass, over the suite's cases. */
  mean: number
  /** φ = α + β: large when every case passes about as often as the others, small when each case mostly passes or mostly fails. */
  concentration: number
  /** False when no case was seen in two samples or more: the spread between cases is then unknown and taken at its widest (φ at its top, every case like the mean). */
  identified: boolean
}

const MAX_CONCENTRATION = 10_000

const logBeta = (a: number, b: number): number => logGamma(a) + logGamma(b) - logGamma(a + b)

/** The beta-binomial fit of the per-case counts: a grid over μ and log φ, refined once around its best point. */
export function fitCasePrior(counts: readonly CaseCounts[]): BetaPrior {
  const groups = new Map<string, { passed: number; samples: number; weight: number }>()
  let passed = 0
  let samples = 0
  for (const c of counts) {
    const key = `${c.passed}/${c.samples}`
    const g = groups.get(key)
    if (g === undefined) groups.set(key, { passed: c.passed, samples: c.samples, weight: 1 })
    else g.weight++
    passed += c.passed
    samples += c.samples
  }
  const pooled = samples === 0 ? 0.5 : Math.min(0.999, Math.max(0.001, passed / samples))
  const identified = counts.some((c) => c.samples >= 2)
  if (!identified) return { mean: pooled, concentration: MAX_CONCENTRATION, identified }
  const all = [...groups.values()]
  const likelihood = (mean: number, phi: number): number => {
    const a = mean * phi
    const b = (1 - mean) * phi
    const base = logBeta(a, b)
    let sum = 0
    for (const g of all) sum += g.weight * (logBeta(a + g.passed, b + g.samples - g.passed) - base)
    return sum
  }
  let best = { mean: pooled, logPhi: Math.log(MAX_CONCENTRATION), value: likelihood(pooled, MAX_CONCENTRATION) }
  const search = (means: number[], logPhis: number[]): void => {
    for (const mean of means)
      for (const logPhi of logPhis) {
        const value = likelihood(mean, Math.exp(logPhi))
        if (value > best.value) best = { mean, logPhi, value }
      }
  }
  const range = (lo: number, hi: number, steps: number): number[] => Array.from({ length: steps + 1 }, (_, i) => lo + ((hi - lo) * i) / steps)
  search(range(0.005, 0.995, 99), range(Math.log(0.05), Math.log(MAX_CONCENTRATION), 60))
  const step = 0.01
  const logStep = (Math.log(MAX_CONCENTRATION) - Math.log(0.05)) / 60
  search(
    range(Math.max(0.001, best.mean - step), Math.min(0.999, best.mean + step), 20),
    range(Math.max(Math.log(0.05), best.logPhi - logStep), Math.min(Math.log(MAX_CONCENTRATION), best.logPhi + logStep), 20),
  )
  return { mean: best.mean, concentration: Math.exp(best.logPhi), identified }
}

/** A standard normal draw (Box–Muller). */
function normalDraw(random: Random): number {
  const u = 1 - random()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

/** A Gamma(shape, 1) draw (Marsaglia–Tsang; shape < 1 by the boost U^(1/shape)). */
function gammaDraw(random: Random, shape: number): number {
  if (shape < 1) return gammaDraw(random, shape + 1) * (1 - random()) ** (1 / shape)
  const d = shape - 1 / 3
  const c = 1 / Math.sqrt(9 * d)
  for (;;) {
    let x: number
    let v: number
    do {
      x = normalDraw(random)
      v = 1 + c * x
    } while (v <= 0)
    v = v * v * v
    const u = 1 - random()
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v
  }
}

/** A Beta(a, b) draw. */
export function betaDraw(random: Random, a: number, b: number): number {
  const x = gammaDraw(random, a)
  const y = gammaDraw(random, b)
  return x + y === 0 ? a / (a + b) : x / (x + y)
}

/** `draws` chances per case from each case's posterior: the population a plan simulates cases from. */
export function posteriorChances(counts: readonly CaseCounts[], prior: BetaPrior, draws: number, random: Random): number[] {
  const a = prior.mean * prior.concentration
  const b = (1 - prior.mean) * prior.concentration
  const out: number[] = []
  for (const c of counts) for (let i = 0; i < draws; i++) out.push(betaDraw(random, a + c.passed, b + c.samples - c.passed))
  return out
}
