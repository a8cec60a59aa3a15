// The pass-rate gate at every size (issue 28): A/A pairs of runs of the same stochastic target at
// n = 5 … 300 cases, through compareRuns itself, against the rule digline used before (the normal
// interval mean ± 1.96·sd/√n, recomputed here from the comparison's own n, mean and sd).
import { caseProbabilities, drawRun } from './regression-simulation.js'

const CONFIG_HASH = '5a5a5a5a5a5a'

/** @param {import('./regression-simulation.js').SimulationParts} digline */
export function simulateSizes(digline, { sizes, repetitions, seed, drop = 0 }) {
  return sizes.map((cases) => {
    const random = digline.seededRandom(seed + cases)
    let flagged = 0
    let before = 0
    let tooFew = 0
    for (let rep = 0; rep < repetitions; rep++) {
      const base = caseProbabilities(cases, random)
      const expected = base.reduce((s, p) => s + p, 0) / cases
      const worse = base.map((p) => p * (1 - drop / expected))
      const baselineRun = drawRun(digline, base, random, 0, '2026-01-01T00:00:00.000000Z')
      const run = drawRun(digline, worse, random, 0, '2026-01-02T00:00:00.000000Z')
      const baseline = digline.baselineOf(baselineRun, digline.keyFor(baselineRun.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z')
      const c = digline.compareRuns(baseline, run)
      if (c.regressed) flagged++
      if (c.warnings.some((w) => w.startsWith('too few cases'))) tooFew++
      const d = c.difference
      if (d !== null && d.sd !== null && Math.min(1, d.mean + (1.959964 * d.sd) / Math.sqrt(d.n)) < -1e-9) before++
    }
    return { cases, repetitions, drop, rate: flagged / repetitions, beforeRate: before / repetitions, tooFewRate: tooFew / repetitions }
  })
}
