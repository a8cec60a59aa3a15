// Every metric by tag: for each tag the run's cases carry, its pass rate (Wilson interval), mean
// score, cost and latency per case (t intervals), and, against the baseline, the paired differences
// over the tag's shared cases; a tag moved when its paired pass-rate or score interval leaves zero.
import type { CaseResult, Interval } from '../../document/schema.js'
import { differenceOf, pairCases, pairedDifference, scoreValue, verdictDifferenceOf, type PairedDifference } from '../../stats/paired-difference.js'
import { wilson } from '../../stats/wilson.js'
import { amountGate, amountOf, type AmountGate } from './amount-gates.js'

export interface Estimate {
  mean: number
  /** 95% interval; null with fewer than two measured cases. */
  ci95: Interval | null
  /** Cases it is taken over. */
  n: number
}

export interface TagSlice {
  tag: string
  /** The run's cases with this tag, and how many of them were judged (not errored). */
  cases: number
  judged: number
  pass_rate: Estimate | null
  mean_score: Estimate | null
  /** Per case, where the run recorded them (cost: with tolerances.costPerCase and prices; latency: with tolerances.latencyPerCase). */
  cost_per_case: Estimate | null
  latency_per_case: Estimate | null
  /** Against the baseline, over the tag's cases both runs judged; absent without a baseline. */
  against?: {
    shared: number
    pass_rate: PairedDifference | null
    mean_score: PairedDifference | null
    cost_per_case: AmountGate
    latency_per_case: AmountGate
  }
  /** The paired pass-rate or mean-score interval lies wholly above or below zero. */
  moved: boolean
}

/** The breakdown by tag of `run`'s results (tags in code-point order), paired with `baseline`'s when given; empty when no case has a tag. */
export function tagBreakdown(run: readonly CaseResult[], baseline?: readonly CaseResult[]): TagSlice[] {
  const byTag = new Map<string, CaseResult[]>()
  for (const result of run) for (const tag of result.tags ?? []) byTag.set(tag, [...(byTag.get(tag) ?? []), result])
  const tags = [...byTag.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return tags.map((tag) => sliceOf(tag, byTag.get(tag)!, baseline))
}

function sliceOf(tag: string, results: readonly CaseResult[], baseline: readonly CaseResult[] | undefined): TagSlice {
  const judged = results.filter((r) => r.verdict !== 'error')
  const passed = judged.filter((r) => r.verdict === 'pass').length
  const interval = wilson(passed, judged.length)
  const slice: TagSlice = {
    tag,
    cases: results.length,
    judged: judged.length,
    pass_rate: judged.length === 0 ? null : { mean: passed / judged.length, ci95: interval ?? null, n: judged.length },
    mean_score: estimate(judged.map(scoreValue), [0, 1]),
    cost_per_case: estimate(measured(judged, 'cost_per_case'), null),
    latency_per_case: estimate(measured(judged, 'latency_per_case'), null),
    moved: false,
  }
  if (baseline === undefined) return slice
  const { pairs } = pairCases(baseline, results)
  const passRate = verdictDifferenceOf(pairs) ?? null
  const meanScore = differenceOf(pairs, scoreValue) ?? null
  slice.against = {
    shared: pairs.length,
    pass_rate: passRate,
    mean_score: meanScore,
    cost_per_case: amountGate('cost_per_case', pairs, null),
    latency_per_case: amountGate('latency_per_case', pairs, null),
  }
  slice.moved = leavesZero(passRate) || leavesZero(meanScore)
  return slice
}

function measured(results: readonly CaseResult[], gate: 'cost_per_case' | 'latency_per_case'): number[] {
  const out: number[] = []
  for (const r of results) {
    const value = amountOf(gate, r)
    if (value !== undefined) out.push(value)
  }
  return out
}

function estimate(values: readonly number[], bounds: readonly [number, number] | null): Estimate | null {
  const d = pairedDifference(values, bounds)
  return d === undefined ? null : { mean: d.mean, ci95: d.ci95, n: d.n }
}

function leavesZero(d: PairedDifference | null): boolean {
  return d?.ci95 != null && (d.ci95.low > 0 || d.ci95.high < 0)
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`
const pts = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(1)}`
const signedScore = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(3)}`
const ci = (i: Interval | null, shown: (x: number) => string): string => (i === null ? '' : ` [${shown(i.low)}, ${shown(i.high)}]`)

/** One line per tag: `billing: 12 cases, pass rate 83.3% [55.2%, 95.3%], mean score 0.833 [0.61, 1.00]; against the baseline −16.7 points [−40.1, +5.0]`. */
export function describeTagSlice(s: TagSlice): string {
  const parts = [`${s.cases} case${s.cases === 1 ? '' : 's'}`]
  if (s.pass_rate !== null) parts.push(`pass rate ${pct(s.pass_rate.mean)}${ci(s.pass_rate.ci95, pct)}`)
  if (s.mean_score !== null) parts.push(`mean score ${s.mean_score.mean.toFixed(3)}${ci(s.mean_score.ci95, (x) => x.toFixed(3))}`)
  if (s.cost_per_case !== null) parts.push(`cost per case ${s.cost_per_case.mean.toPrecision(3)}${ci(s.cost_per_case.ci95, (x) => x.toPrecision(3))}`)
  if (s.latency_per_case !== null) parts.push(`latency per case ${Math.round(s.latency_per_case.mean)} ms${ci(s.latency_per_case.ci95, (x) => String(Math.round(x)))}`)
  let line = `${s.tag}: ${parts.join(', ')}`
  const d = s.against?.pass_rate
  if (d != null) line += `; pass rate against the baseline ${pts(d.mean)} points${ci(d.ci95, pts)} over ${d.n} shared`
  const m = s.against?.mean_score
  if (m != null) line += `, mean score ${signedScore(m.mean)}${ci(m.ci95, signedScore)}`
  return line
}

/** `slices that moved: billing (−25.0 points), refunds (+0.120 score)`; undefined when none did. */
export function describeMovedTags(slices: readonly TagSlice[]): string | undefined {
  const moved = slices.filter((s) => s.moved)
  if (moved.length === 0) return undefined
  return `slices that moved against the baseline (the 95% interval leaves zero): ${moved.map((s) => s.tag).join(', ')}`
}
