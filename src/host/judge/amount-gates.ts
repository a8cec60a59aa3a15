// The gates on what a case consumes: the target's cost, tokens and latency per case. Each is judged
// like the pass rate (ADR 0010): the paired difference over the shared cases with its 95% interval,
// here divided by the baseline's mean so the tolerance reads as a relative rise (ADR 0065). A gate
// regresses only when the whole interval lies above its tolerance.
import type { CaseResult } from '../../document/schema.js'
import { pairedDifference, type Interval, type PairedDifference } from '../../stats/paired-difference.js'
import { riseBeyond } from '../../stats/gate-rule.js'

export type AmountGateName = 'cost_per_case' | 'tokens_per_case' | 'latency_per_case'

export const AMOUNT_GATES: readonly AmountGateName[] = ['cost_per_case', 'tokens_per_case', 'latency_per_case']

export interface AmountGate {
  gate: AmountGateName
  /** The rise allowed, relative to the baseline (0.2 = 20%); null when the suite sets none (shown, not gating). */
  tolerance: number | null
  /** Cases both runs measured: the difference is taken over these. */
  n: number
  /** Per case, over those cases: the baseline's mean and the run's mean, in the gate's unit. */
  baseline_mean: number | null
  run_mean: number | null
  /** The run minus the baseline per case, in the gate's unit (not clamped). */
  difference: PairedDifference | null
  /** The difference over the baseline's mean: +0.3 is 30% more per case; its interval likewise. */
  relative: { mean: number; ci95: Interval | null } | null
  regressed: boolean
  /** Why the gate could not be measured; null when it was. */
  unmeasured: string | null
}

export const AMOUNT_UNITS: Record<AmountGateName, string> = { cost_per_case: 'cost per case', tokens_per_case: 'tokens per case', latency_per_case: 'latency per case' }

/** One case's amount for a gate, or undefined when the run did not record it. */
export function amountOf(gate: AmountGateName, result: CaseResult): number | undefined {
  if (gate === 'cost_per_case') return result.target_cost
  if (gate === 'tokens_per_case') {
    let sum = 0
    for (const sample of result.samples) {
      if (sample.usage === undefined) return undefined
      sum += sample.usage.input_tokens + sample.usage.output_tokens
    }
    return result.samples.length === 0 ? undefined : sum
  }
  const times: number[] = []
  for (const sample of result.samples) {
    if (sample.latency_ms === undefined) return undefined
    times.push(sample.latency_ms)
  }
  return times.length === 0 ? undefined : median(times)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const NOT_RECORDED: Record<AmountGateName, string> = {
  cost_per_case: 'the runs recorded no cost per case (it is recorded when the suite sets tolerances.costPerCase and prices)',
  tokens_per_case: 'the target reported no usage',
  latency_per_case: 'the runs recorded no latency (it is recorded when the suite sets tolerances.latencyPerCase)',
}

/** The decision on amounts already paired as [baseline, run]; the same rule whatever the amount. */
export function judgeAmounts(gate: AmountGateName, amounts: readonly (readonly [number, number])[], tolerance: number | null): AmountGate {
  const out: AmountGate = { gate, tolerance, n: amounts.length, baseline_mean: null, run_mean: null, difference: null, relative: null, regressed: false, unmeasured: null }
  if (amounts.length === 0) return { ...out, unmeasured: NOT_RECORDED[gate] }
  const baseMean = amounts.reduce((s, [b]) => s + b, 0) / amounts.length
  out.baseline_mean = baseMean
  out.run_mean = amounts.reduce((s, [, r]) => s + r, 0) / amounts.length
  out.difference = pairedDifference(
    amounts.map(([b, r]) => r - b),
    null,
  )!
  if (baseMean <= 0) return { ...out, unmeasured: `the baseline's ${AMOUNT_UNITS[gate]} is zero, so a relative change has no meaning` }
  const d = out.difference
  out.relative = { mean: d.mean / baseMean, ci95: d.ci95 === null ? null : { low: d.ci95.low / baseMean, high: d.ci95.high / baseMean } }
  if (d.ci95 === null) return { ...out, unmeasured: 'only one case measured in both runs: too few for an interval' }
  out.regressed = tolerance !== null && riseBeyond(out.relative.ci95!, tolerance)
  return out
}

/** The gate over the paired cases of a comparison; cases either run did not measure are left out. */
export function amountGate(gate: AmountGateName, pairs: readonly [CaseResult, CaseResult][], tolerance: number | null): AmountGate {
  const amounts: [number, number][] = []
  for (const [before, after] of pairs) {
    const b = amountOf(gate, before)
    const r = amountOf(gate, after)
    if (b !== undefined && r !== undefined) amounts.push([b, r])
  }
  return judgeAmounts(gate, amounts, tolerance)
}

const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(1)}%`

/** "+31.2% per case, 95% interval [+24.0%, +38.4%] over 300 shared cases (tolerance +10.0%)" */
export function describeAmountGate(g: AmountGate): string {
  if (g.relative === null || g.unmeasured !== null) return `not measured: ${g.unmeasured ?? 'no case measured in both runs'}`
  const ci = g.relative.ci95 === null ? '' : `, 95% interval [${signed(g.relative.ci95.low)}, ${signed(g.relative.ci95.high)}]`
  const tol = g.tolerance === null ? 'no tolerance set: shown, not gating' : `tolerance +${(g.tolerance * 100).toFixed(1)}%`
  return `${signed(g.relative.mean)} per case${ci} over ${g.n} shared cases (${tol})`
}

/** Why the gate regressed, in one sentence. */
export function amountReason(g: AmountGate): string {
  return `${AMOUNT_UNITS[g.gate]} ${describeAmountGate(g)}: the whole interval lies above ${g.tolerance === 0 ? 'zero (the suite allows no rise)' : `the tolerance of +${((g.tolerance ?? 0) * 100).toFixed(1)}%`}`
}
