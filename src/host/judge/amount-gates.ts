// The gates on what a case consumes: the target's cost, tokens and latency per case. Each is judged
// on the paired log-ratio (ADR 0121, after ADR 0065): per shared case ln(run_i / baseline_i), their
// mean with a t(n − 1) interval, back on the ratio scale as the geometric mean of the per-case
// ratios. Each case is its own baseline, so the baseline's noise is in the interval, heavy-tailed
// amounts do not swamp it, and the interval never leaves (−100%, ∞). A gate regresses only when the
// whole interval lies above its tolerance.
import type { CaseResult } from '../../document/schema.js'
import { sampleStepsOf } from '../../suite/turns.js'
import { pairedDifference, type Interval, type PairedDifference } from '../../stats/paired-difference.js'
import { t95 } from '../../stats/distributions.js'
import { riseBeyond } from '../../stats/gate-rule.js'

export type AmountGateName = 'cost_per_case' | 'tokens_per_case' | 'latency_per_case' | 'tool_calls_per_case' | 'steps_per_case'

export const AMOUNT_GATES: readonly AmountGateName[] = ['cost_per_case', 'tokens_per_case', 'latency_per_case']

/** An agent's trajectory per case (SPEC §16): compared only where a run of the pair reported steps. */
export const TRAJECTORY_GATES: readonly AmountGateName[] = ['tool_calls_per_case', 'steps_per_case']

export interface AmountGate {
  gate: AmountGateName
  /** The rise allowed, relative to the baseline (0.2 = 20%); null when the suite sets none (shown, not gating). */
  tolerance: number | null
  /** Cases both runs measured: the difference is taken over these. */
  n: number
  /** Per case, over those cases: the baseline's mean and the run's mean, in the gate's unit. */
  baseline_mean: number | null
  run_mean: number | null
  /** The run minus the baseline per case, in the gate's unit (not clamped; shown, not gated on). */
  difference: PairedDifference | null
  /** The geometric mean of the per-case ratios run / baseline, minus 1: +0.3 is 30% more per case; its interval likewise (never below −1). */
  relative: { mean: number; ci95: Interval | null } | null
  /** How `relative` was made: the paired log-ratio with a t interval. */
  method?: 'log-ratio'
  /** Cases measured in both runs but left out of the ratio because one side measured zero. */
  zero?: number
  regressed: boolean
  /** Why the gate could not be measured; null when it was. */
  unmeasured: string | null
}

export const AMOUNT_UNITS: Record<AmountGateName, string> = {
  cost_per_case: 'cost per case',
  tokens_per_case: 'tokens per case',
  latency_per_case: 'latency per case',
  tool_calls_per_case: 'tool calls per case',
  steps_per_case: 'steps per case',
}

/** Whether any case of either run reported steps: only then are the trajectory gates compared. */
export function reportsSteps(pairs: readonly [CaseResult, CaseResult][]): boolean {
  return pairs.some(([b, r]) => b.samples.some((s) => sampleStepsOf(s) !== undefined) || r.samples.some((s) => sampleStepsOf(s) !== undefined))
}

/** One case's amount for a gate, or undefined when the run did not record it. */
export function amountOf(gate: AmountGateName, result: CaseResult): number | undefined {
  if (gate === 'cost_per_case') return result.target_cost
  if (gate === 'tool_calls_per_case' || gate === 'steps_per_case') {
    const type = gate === 'tool_calls_per_case' ? 'tool' : 'model'
    let sum = 0
    for (const sample of result.samples) {
      const steps = sampleStepsOf(sample)
      if (steps === undefined) return undefined
      for (const step of steps) if (step.type === type) sum++
    }
    return result.samples.length === 0 ? undefined : sum
  }
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
  tool_calls_per_case: 'the target reported no steps in one run or both',
  steps_per_case: 'the target reported no steps in one run or both',
}

/** The paired log-ratio of positive amounts paired as [baseline, run]: the geometric mean ratio − 1, with its t interval. */
export function logRatio(amounts: readonly (readonly [number, number])[]): { n: number; mean: number; ci95: Interval | null } | undefined {
  const logs: number[] = []
  for (const [b, r] of amounts) if (b > 0 && r > 0) logs.push(Math.log(r / b))
  const n = logs.length
  if (n === 0) return undefined
  const mean = logs.reduce((s, x) => s + x, 0) / n
  if (n < 2) return { n, mean: Math.expm1(mean), ci95: null }
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1))
  const half = (t95(n - 1) * sd) / Math.sqrt(n)
  return { n, mean: Math.expm1(mean), ci95: { low: Math.expm1(mean - half), high: Math.expm1(mean + half) } }
}

/** The decision on amounts already paired as [baseline, run]; the same rule whatever the amount. */
export function judgeAmounts(gate: AmountGateName, amounts: readonly (readonly [number, number])[], tolerance: number | null): AmountGate {
  const out: AmountGate = { gate, tolerance, n: amounts.length, baseline_mean: null, run_mean: null, difference: null, relative: null, regressed: false, unmeasured: null }
  if (amounts.length === 0) return { ...out, unmeasured: NOT_RECORDED[gate] }
  out.baseline_mean = amounts.reduce((s, [b]) => s + b, 0) / amounts.length
  out.run_mean = amounts.reduce((s, [, r]) => s + r, 0) / amounts.length
  out.difference = pairedDifference(
    amounts.map(([b, r]) => r - b),
    null,
  )!
  const ratio = logRatio(amounts)
  const zero = amounts.length - (ratio?.n ?? 0)
  if (ratio === undefined) return { ...out, zero, unmeasured: `every case measured zero ${AMOUNT_UNITS[gate]} in one run or both, so a ratio has no meaning` }
  out.n = ratio.n
  out.method = 'log-ratio'
  out.zero = zero
  out.relative = { mean: ratio.mean, ci95: ratio.ci95 }
  if (ratio.ci95 === null) return { ...out, unmeasured: 'only one case measured in both runs: too few for an interval' }
  out.regressed = tolerance !== null && riseBeyond(ratio.ci95, tolerance)
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
  const zero = g.zero === undefined || g.zero === 0 ? '' : `; ${g.zero} case${g.zero === 1 ? '' : 's'} measuring zero left out`
  return `${signed(g.relative.mean)} per case${ci} over ${g.n} shared cases (${tol}${zero})`
}

/** Why the gate regressed, in one sentence. */
export function amountReason(g: AmountGate): string {
  return `${AMOUNT_UNITS[g.gate]} ${describeAmountGate(g)}: the whole interval lies above ${g.tolerance === 0 ? 'zero (the suite allows no rise)' : `the tolerance of +${((g.tolerance ?? 0) * 100).toFixed(1)}%`}`
}
