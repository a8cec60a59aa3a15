// Flaky cases: shared cases whose own samples disagree (some pass, some fail) in the baseline or in
// the run. Their verdict can flip between two runs of the same system, so their flips are expected
// noise; the share of the pass-rate gate's variance they carry says how much of the interval's width
// is theirs (ADR 0067).
import type { CaseResult } from '../document/schema.js'

export interface FlakyCases {
  /** Shared case ids whose samples disagreed in the baseline or in the run, in the run's order. */
  cases: string[]
  /** Of those, the ones whose verdict flipped between the two runs. */
  flipped: string[]
  /** Their share of Σ(d_i − mean)² of the paired pass-rate difference (0..1); null when there is no spread. */
  variance_share: number | null
  /** Samples per case of the run: with one, no case can show disagreement. */
  samples: number
}

/** Some samples passed and some failed. */
export function samplesDisagree(result: CaseResult): boolean {
  return result.passed_samples > 0 && result.passed_samples < result.samples.length
}

export function flakyCases(pairs: readonly [CaseResult, CaseResult][], samples: number): FlakyCases {
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
    if (!samplesDisagree(b) && !samplesDisagree(r)) continue
    cases.push(r.case_id)
    theirs += square
    if (b.verdict !== r.verdict) flipped.push(r.case_id)
  }
  return { cases, flipped, variance_share: total === 0 ? null : theirs / total, samples }
}

/** "flaky: 7 cases (their samples disagree), 3 of them flipped; their flips are expected noise and carry 64% of the pass-rate difference's variance" */
export function describeFlaky(f: FlakyCases): string {
  const share = f.variance_share === null ? '' : ` and carry ${Math.round(f.variance_share * 100)}% of the pass-rate difference's variance`
  return `flaky: ${f.cases.length} case${f.cases.length === 1 ? '' : 's'} (their samples disagree), ${f.flipped.length} of them flipped; their flips are expected noise${share}`
}
