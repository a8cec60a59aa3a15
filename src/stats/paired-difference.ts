// The paired difference of two runs over the cases both share, with a 95% interval (ADR 0120).
// Per-case differences d_i = new_i − base_i (Miller 2024, "Adding Error Bars to Evals",
// arXiv:2411.00640, the paired standard error): pairing removes the variance the cases themselves
// contribute. Scores and shares use mean ± t(n − 1)·sd/√n; pass/fail verdicts use the exact
// conditional interval on the discordant cases (paired-pass-fail.ts), which holds its level at
// every n where the normal approximation did not.
import type { CaseResult } from '../document/schema.js'
import { t95 } from './distributions.js'
import { passFailInterval } from './paired-pass-fail.js'

export interface Interval {
  low: number
  high: number
}

export interface PairedDifference {
  /** Pairs the difference is taken over. */
  n: number
  /** Mean of d_i = new_i − base_i: the new run minus the baseline. */
  mean: number
  /** Sample standard deviation of d_i (n − 1 in the denominator); null when n < 2. */
  sd: number | null
  /** sd / sqrt(n); null when n < 2. */
  se: number | null
  /** The 95% interval, within [−1, 1] for rates and scores; null when n < 2 (there is no spread to measure). */
  ci95: Interval | null
  /** How ci95 was made: `t` is mean ± t(n − 1)·se; `exact`, for pass/fail pairs, the hull of that and the exact conditional interval on the discordant cases; `cluster`, mean ± t(G − 1)·se with the cluster-robust se (ADR 0243). */
  method?: 'exact' | 't' | 'cluster'
  /** With `cluster`: the clusters G the cases fall in, and the design effect, the cluster-robust variance over the independent one. */
  clusters?: number
  design_effect?: number
  /** For pass/fail pairs: the cases that went pass → fail and fail → pass. */
  discordant?: { to_fail: number; to_pass: number }
}

/**
 * The paired difference of values already paired, with a t interval; undefined when there is no
 * pair. Rates and scores (each d_i in [−1, 1]) keep the default clamp; amounts pass `null`.
 */
export function pairedDifference(differences: readonly number[], bounds: readonly [number, number] | null = [-1, 1]): PairedDifference | undefined {
  const clamp = (value: number): number => (bounds === null ? value : Math.min(bounds[1], Math.max(bounds[0], value)))
  const n = differences.length
  if (n === 0) return undefined
  const mean = differences.reduce((sum, d) => sum + d, 0) / n
  if (n < 2) return { n, mean, sd: null, se: null, ci95: null, method: 't' }
  const variance = differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1)
  const sd = Math.sqrt(variance)
  const se = sd / Math.sqrt(n)
  const t = t95(n - 1)
  return { n, mean, sd, se, ci95: { low: clamp(mean - t * se), high: clamp(mean + t * se) }, method: 't' }
}

/**
 * The paired difference of values whose cases come in clusters (ADR 0243): the mean, with the
 * cluster-robust (CR1) variance G/(G − 1) · Σ_g (Σ_{i∈g} (d_i − d̄))² / n² and t(G − 1). A case with
 * no cluster is its own. When every cluster is one case this is the plain t interval.
 */
export function clusteredDifference(
  differences: readonly number[],
  clusters: readonly (string | undefined)[],
  bounds: readonly [number, number] | null = [-1, 1],
): PairedDifference | undefined {
  const spread = pairedDifference(differences, bounds)
  if (spread === undefined || spread.sd === null) return spread
  const sums = new Map<string, number>()
  differences.forEach((d, i) => {
    const key = clusters[i] === undefined ? `\u0000${i}` : `c:${clusters[i]}`
    sums.set(key, (sums.get(key) ?? 0) + d - spread.mean)
  })
  const g = sums.size
  if (g === spread.n) return spread
  const clamp = (value: number): number => (bounds === null ? value : Math.min(bounds[1], Math.max(bounds[0], value)))
  let squares = 0
  for (const s of sums.values()) squares += s * s
  const n = spread.n
  const se = g < 2 ? null : Math.sqrt((g / (g - 1)) * squares) / n
  const independent = spread.se!
  const designEffect = se === null || independent === 0 ? 1 : (se * se) / (independent * independent)
  const base = { ...spread, se, method: 'cluster' as const, clusters: g, design_effect: designEffect }
  if (se === null) return { ...base, ci95: null }
  const t = t95(g - 1)
  return { ...base, ci95: { low: clamp(spread.mean - t * se), high: clamp(spread.mean + t * se) } }
}

/** The paired difference of pass/fail verdicts (each d_i in {−1, 0, 1}), with the exact interval. */
export function passFailDifference(differences: readonly number[]): PairedDifference | undefined {
  const spread = pairedDifference(differences)
  if (spread === undefined) return undefined
  let toFail = 0
  let toPass = 0
  for (const d of differences) {
    if (d < 0) toFail++
    else if (d > 0) toPass++
  }
  if (spread.ci95 === null) return { ...spread, method: 'exact', discordant: { to_fail: toFail, to_pass: toPass } }
  // The exact interval holds the level at every n but takes the share of flipped cases as known; the
  // t interval accounts for that share's own noise. Their hull is never narrower than either.
  const exact = passFailInterval(toFail, toPass, spread.n)
  const ci95 = { low: Math.min(exact.low, spread.ci95.low), high: Math.max(exact.high, spread.ci95.high) }
  return { ...spread, ci95, method: 'exact', discordant: { to_fail: toFail, to_pass: toPass } }
}

export interface CasePairing {
  /** Ids judged (pass or fail) in both runs, in the new run's order. */
  shared: string[]
  /** Ids in the new run that the baseline does not have. */
  added: string[]
  /** Ids in the baseline that the new run does not have. */
  removed: string[]
  /** Ids in both runs that errored in either: excluded from every difference. */
  erroredEither: string[]
  /** Per shared case: [baseline, new]. */
  pairs: [CaseResult, CaseResult][]
}

/** Matches the cases of two runs by case_id; with a repeated id, the baseline's last result of it counts. */
export function pairCases(baseline: readonly CaseResult[], run: readonly CaseResult[]): CasePairing {
  const base = new Map<string, CaseResult>()
  for (const result of baseline) base.set(result.case_id, result)
  const out: CasePairing = { shared: [], added: [], removed: [], erroredEither: [], pairs: [] }
  for (const result of run) {
    const id = result.case_id
    const before = base.get(id)
    if (before === undefined) out.added.push(id)
    else if (before.verdict === 'error' || result.verdict === 'error') out.erroredEither.push(id)
    else {
      out.shared.push(id)
      out.pairs.push([before, result])
    }
  }
  if (!sameIdsInOrder(baseline, run)) {
    const inRun = new Set<string>()
    for (const result of run) inRun.add(result.case_id)
    for (const result of baseline) if (!inRun.has(result.case_id)) out.removed.push(result.case_id)
  }
  return out
}

/** Both runs list the same ids in the same order (the usual case): then the run has every id of the baseline. */
function sameIdsInOrder(baseline: readonly CaseResult[], run: readonly CaseResult[]): boolean {
  if (baseline.length !== run.length) return false
  for (let i = 0; i < run.length; i++) if (baseline[i]!.case_id !== run[i]!.case_id) return false
  return true
}

/** Case outcome as a number: 1 pass, 0 fail. */
export const passValue = (result: CaseResult): number => (result.verdict === 'pass' ? 1 : 0)

/** Case score; a judged case always has one, 0 stands in for a missing one. */
export const scoreValue = (result: CaseResult): number => result.score ?? 0

/** Each pair's cluster, the run's label else the baseline's; undefined when no case of either run names one. */
function clustersOf(pairs: readonly [CaseResult, CaseResult][]): (string | undefined)[] | undefined {
  const labels = pairs.map(([before, after]) => after.cluster ?? before.cluster)
  return labels.some((l) => l !== undefined) ? labels : undefined
}

/** The paired difference of scores (or shares) over the pairs of a pairing, with a t interval (cluster-robust when cases name clusters). */
export function differenceOf(pairs: readonly [CaseResult, CaseResult][], value: (r: CaseResult) => number): PairedDifference | undefined {
  const differences = pairs.map(([before, after]) => value(after) - value(before))
  const clusters = clustersOf(pairs)
  return clusters === undefined ? pairedDifference(differences) : clusteredDifference(differences, clusters)
}

/** The paired difference of verdicts over the pairs of a pairing, with the exact interval; cluster-robust when cases name clusters (the exact interval takes cases as independent). */
export function verdictDifferenceOf(pairs: readonly [CaseResult, CaseResult][]): PairedDifference | undefined {
  const differences = pairs.map(([before, after]) => passValue(after) - passValue(before))
  const clusters = clustersOf(pairs)
  if (clusters === undefined) return passFailDifference(differences)
  const clustered = clusteredDifference(differences, clusters)
  if (clustered === undefined || clustered.method !== 'cluster') return passFailDifference(differences)
  let toFail = 0
  let toPass = 0
  for (const d of differences) {
    if (d < 0) toFail++
    else if (d > 0) toPass++
  }
  return { ...clustered, discordant: { to_fail: toFail, to_pass: toPass } }
}
