// Cohen's kappa between a judge and the people who labelled its verdicts (ADR 0350): the share of
// labels where the two agree, corrected for the agreement their own pass rates would give by chance,
// with a 95% interval from resampling the labelled answers (a case labelled by two people is one
// draw, since its labels are not independent).
import { seededRandom } from './prng.js'

/** One label: the judge's verdict on an answer, and the verdict the person says is right. */
export interface LabelPair {
  /** The labelled answer (run and case): labels of one answer are resampled together. */
  unit: string
  judge: boolean
  human: boolean
}

export interface Kappa {
  /** Labels counted. */
  labels: number
  /** Answers they label (a person's second label of an answer counts, but resamples with the first). */
  units: number
  /** The share of labels where judge and person agree. */
  observed: number
  /** null when chance alone would agree on every label (every verdict and label the same). */
  kappa: number | null
  /** 95% percentile interval over 2,000 resamples of the answers; null with fewer than 2 answers or no kappa. */
  ci95: { low: number; high: number } | null
}

/**
 * Cohen's kappa of a k × k table of counts (rows: one rater's category, columns: the other's):
 * (p_o − p_e) / (1 − p_e) with p_o the diagonal share and p_e Σ row_i · col_i / n². null when p_e is 1.
 */
export function kappaOfTable(table: readonly (readonly number[])[]): number | null {
  const k = table.length
  let n = 0
  let diagonal = 0
  const rows = new Array<number>(k).fill(0)
  const cols = new Array<number>(k).fill(0)
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const count = table[i]![j]!
      n += count
      rows[i]! += count
      cols[j]! += count
      if (i === j) diagonal += count
    }
  }
  if (n === 0) return null
  let chance = 0
  for (let i = 0; i < k; i++) chance += rows[i]! * cols[i]!
  const pe = chance / (n * n)
  if (pe >= 1 - 1e-12) return null
  return (diagonal / n - pe) / (1 - pe)
}

/** The 2 × 2 counts of judge (rows: pass, fail) against person (columns: pass, fail). */
function tableOf(counts: readonly number[]): number[][] {
  return [
    [counts[0]!, counts[1]!],
    [counts[2]!, counts[3]!],
  ]
}

const cell = (p: LabelPair): number => (p.judge ? 0 : 2) + (p.human ? 0 : 1)

export const KAPPA_DRAWS = 2000
const SEED = 0x350

/** Kappa of the labels, with its interval from resampling the labelled answers under a fixed seed. */
export function cohenKappa(pairs: readonly LabelPair[]): Kappa {
  const byUnit = new Map<string, number[]>()
  for (const p of pairs) {
    const counts = byUnit.get(p.unit) ?? [0, 0, 0, 0]
    counts[cell(p)]!++
    byUnit.set(p.unit, counts)
  }
  const units = [...byUnit.values()]
  const total = [0, 0, 0, 0]
  for (const u of units) for (let c = 0; c < 4; c++) total[c]! += u[c]!
  const labels = pairs.length
  const observed = labels === 0 ? 0 : (total[0]! + total[3]!) / labels
  const kappa = kappaOfTable(tableOf(total))
  let ci95: Kappa['ci95'] = null
  if (kappa !== null && units.length >= 2) {
    const random = seededRandom(SEED)
    const draws: number[] = []
    const sum = [0, 0, 0, 0]
    for (let b = 0; b < KAPPA_DRAWS; b++) {
      sum.fill(0)
      for (let i = 0; i < units.length; i++) {
        const u = units[Math.floor(random() * units.length)]!
        for (let c = 0; c < 4; c++) sum[c]! += u[c]!
      }
      // A draw where chance agrees on everything has no kappa; it says the labels are all one verdict, so it counts as no agreement beyond chance.
      draws.push(kappaOfTable(tableOf(sum)) ?? 0)
    }
    draws.sort((a, b) => a - b)
    ci95 = { low: draws[Math.floor(0.025 * (draws.length - 1))]!, high: draws[Math.ceil(0.975 * (draws.length - 1))]! }
  }
  return { labels, units: units.length, observed, kappa, ci95 }
}
