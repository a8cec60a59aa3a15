// Flaky cases: shared cases whose samples disagree (some pass, some fail) in the baseline or in the
// run, or whose verdict moved between the baseline and the suite's recent earlier runs of the same
// rules (one sample each is enough to disagree across runs; the run itself is left out of that, so a
// steady case that flips now is a change, not noise). Their verdict can flip between two runs of the same system, so their flips are
// expected noise; the share of the pass-rate gate's variance they carry says how much of the
// interval's width is theirs (ADR 0067).
import type { CaseResult } from '../../document/schema.js'

export interface FlakyCases {
  /** Shared case ids whose samples disagreed in the baseline or in the run, in the run's order. */
  cases: string[]
  /** Of those, the ones whose verdict flipped between the two runs. */
  flipped: string[]
  /** Their share of Σ(d_i − mean)² of the paired pass-rate difference (0..1); null when there is no spread. */
  variance_share: number | null
  /** Samples per case of the run. */
  samples: number
  /** How many recent runs (besides the baseline and the run) were looked at. */
  recent_runs: number
}

/** Recent runs' results of each case, by case id: what shows a case disagreeing with itself across runs. */
export type CaseHistory = ReadonlyMap<string, readonly CaseResult[]>

/** Some samples passed and some failed. */
export function samplesDisagree(result: CaseResult): boolean {
  return result.passed_samples > 0 && result.passed_samples < result.samples.length
}

/** Passes and fails among one case's judged results of several runs. */
function verdictsDisagree(results: readonly CaseResult[]): boolean {
  const judged = results.filter((r) => r.verdict !== 'error')
  return judged.some((r) => r.verdict === 'pass') && judged.some((r) => r.verdict !== 'pass')
}

/** The baseline's result and the recent runs' of its case disagree; one result alone never does. */
function historyDisagrees(baseline: CaseResult, recent: readonly CaseResult[] | undefined): boolean {
  return recent !== undefined && verdictsDisagree([baseline, ...recent])
}

export function flakyCases(pairs: readonly [CaseResult, CaseResult][], samples: number, history: CaseHistory = new Map(), recentRuns = 0): FlakyCases {
  const d = (b: CaseResult, r: CaseResult): number => (r.verdict === 'pass' ? 1 : 0) - (b.verdict === 'pass' ? 1 : 0)
  let sum = 0
  for (const [b, r] of pairs) sum += d(b, r)
  const mean = pairs.length === 0 ? 0 : sum / pairs.length
  let total = 0
  let theirs = 0
  const cases: string[] = []
  const flipped: string[] = []
  for (const [b, r] of pairs) {
    const square = (d(b, r) - mean) ** 2
    total += square
    if (!samplesDisagree(b) && !samplesDisagree(r) && !historyDisagrees(b, history.get(r.case_id))) continue
    cases.push(r.case_id)
    theirs += square
    if (b.verdict !== r.verdict) flipped.push(r.case_id)
  }
  return { cases, flipped, variance_share: total === 0 ? null : theirs / total, samples, recent_runs: recentRuns }
}

/** "flaky: 7 cases (their samples disagree), 3 of them flipped; their flips are expected noise and carry 64% of the pass-rate difference's variance" */
export function describeFlaky(f: FlakyCases): string {
  const share = f.variance_share === null ? '' : ` and carry ${Math.round(f.variance_share * 100)}% of the pass-rate difference's variance`
  const where = f.recent_runs > 0 ? `, here or in the ${f.recent_runs} recent run${f.recent_runs === 1 ? '' : 's'} of these rules` : ''
  return `flaky: ${f.cases.length} case${f.cases.length === 1 ? '' : 's'} (their samples disagree${where}), ${f.flipped.length} of them flipped; their flips are expected noise${share}`
}
