// The variants of one suite side by side (SPEC §15, ADR 0301): per variant its pass rate, mean score
// and what a case costs, each with its interval; per pair of variants the paired difference of pass
// rates over the cases both judged, with its interval adjusted for the number of pairs, and a verdict.
// The launch prints it when its variants are filed; the report draws it as the variant matrix.
import type { CaseResult, Interval, RunDocument } from '../../document/schema.js'
import { pairedDifference } from '../../stats/paired-difference.js'
import { decidePair, pairCount, pairLevel, type PairVerdict } from '../../stats/variant-pairs.js'
import { amountOf } from './amount-gates.js'

export interface VariantAmount {
  /** Per case, over the judged cases that measured it. */
  mean: number
  /** 95% t interval; null when fewer than two cases measured it, or when only the run's total is known. */
  ci95: Interval | null
}

export interface VariantRow {
  variant: string
  /** The suite its runs are filed under (`<suite>.<variant>`) and the run shown. */
  suite: string
  key: string
  cases: number
  errored: number
  pass_rate: number | null
  pass_rate_ci95: Interval | null
  mean_score: VariantAmount | null
  /** The target's cost per case, in the price table's currency; null without prices. */
  cost_per_case: VariantAmount | null
  tokens_per_case: VariantAmount | null
  /** Milliseconds, each case's median sample; null unless the suite records latency (tolerances.latencyPerCase). */
  latency_per_case: VariantAmount | null
}

export interface VariantPair {
  a: string
  b: string
  shared: number
  /** Shared cases A passed and B failed, and the other way round. */
  a_only: number
  b_only: number
  /** Pass rate of A minus that of B over the shared cases, with its adjusted interval. */
  difference: number
  interval: Interval
  verdict: PairVerdict
}

export interface VariantComparison {
  /** The suite as declared (its variants are filed as `<suite>.<variant>`). */
  suite: string
  variants: VariantRow[]
  pairs: VariantPair[]
  /** The two-sided level of each pair's interval: 95% split over the pairs (Bonferroni). */
  level: number
}

export interface VariantRun {
  variant: string
  suite: string
  key: string
  document: RunDocument
}

const judged = (r: CaseResult): boolean => r.verdict !== 'error'

function amount(values: readonly number[]): VariantAmount | null {
  const d = pairedDifference(values, null)
  return d === undefined ? null : { mean: d.mean, ci95: d.ci95 }
}

function measured(results: readonly CaseResult[], gate: 'cost_per_case' | 'tokens_per_case' | 'latency_per_case'): VariantAmount | null {
  const values: number[] = []
  for (const r of results) {
    const v = amountOf(gate, r)
    if (v !== undefined) values.push(v)
  }
  return amount(values)
}

function rowOf(run: VariantRun): VariantRow {
  const { document: doc } = run
  const results = doc.results.filter(judged)
  const cost = doc.aggregates.cost
  const costPerCase = measured(results, 'cost_per_case') ?? (cost === undefined || doc.aggregates.cases === 0 ? null : { mean: cost.target / doc.aggregates.cases, ci95: null })
  const scores = results.map((r) => r.score ?? 0)
  const score = pairedDifference(scores, [0, 1])
  return {
    variant: run.variant,
    suite: run.suite,
    key: run.key,
    cases: doc.aggregates.cases,
    errored: doc.aggregates.errored,
    pass_rate: doc.aggregates.pass_rate,
    pass_rate_ci95: doc.aggregates.pass_rate_ci95,
    mean_score: score === undefined ? null : { mean: score.mean, ci95: score.ci95 },
    cost_per_case: costPerCase,
    tokens_per_case: measured(results, 'tokens_per_case'),
    latency_per_case: measured(results, 'latency_per_case'),
  }
}

function pairOf(a: VariantRun, b: VariantRun, pairs: number): VariantPair {
  const verdicts = new Map<string, CaseResult['verdict']>()
  for (const r of b.document.results) verdicts.set(r.case_id, r.verdict)
  let shared = 0
  let aOnly = 0
  let bOnly = 0
  for (const r of a.document.results) {
    const other = verdicts.get(r.case_id)
    if (other === undefined || other === 'error' || r.verdict === 'error') continue
    shared++
    if (r.verdict === 'pass' && other === 'fail') aOnly++
    else if (r.verdict === 'fail' && other === 'pass') bOnly++
  }
  const decided = decidePair(aOnly, bOnly, shared, pairs)
  return { a: a.variant, b: b.variant, shared, a_only: aOnly, b_only: bOnly, difference: decided.difference, interval: decided.interval, verdict: decided.verdict }
}

/** The variants of `suite` in the order given, and every pair of them (the earlier one as A). */
export function compareVariants(suite: string, runs: readonly VariantRun[]): VariantComparison {
  const pairs = pairCount(runs.length)
  const out: VariantPair[] = []
  for (let i = 0; i < runs.length; i++) for (let j = i + 1; j < runs.length; j++) out.push(pairOf(runs[i]!, runs[j]!, pairs))
  return { suite, variants: runs.map(rowOf), pairs: out, level: pairLevel(pairs) }
}
