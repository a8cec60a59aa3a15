// `digline plan` in words: what the figures rest on, the table of sizes, and the cost figure.
import { requiredPasses } from '../../driver/execute.js'
import { percent } from '../judge/percent.js'
import type { Plan, PlanRow } from './plan.js'

const pts = (x: number): string => `${(x * 100).toFixed(1)} points`
const rate = (x: number | null): string => (x === null ? '—' : percent(x))
// 2/3 is kept as 0.6666666666666666: say it as a person wrote it, with the passes it asks for.
const agreement = (share: number, samples: number): string => `${Number(share.toFixed(3))} (${requiredPasses(share, samples)} of ${samples} samples)`

function row(r: PlanRow, maxCases: string): string {
  const cases = r.cases === null ? `more than ${maxCases}` : String(r.cases)
  return `  ${String(r.samples).padStart(7)}  ${cases.padStart(16)}  ${(r.calls === null ? '—' : String(r.calls)).padStart(8)}  ${rate(r.power).padStart(7)}  ${rate(r.false_alarm).padStart(11)}`
}

export function formatPlan(p: Plan): string {
  const e = p.evidence
  const lines = [
    `digline plan ${p.suite}: catching a drop of ${pts(p.detect)} in ${percent(p.power)} of runs (tolerance ${pts(p.tolerance)})`,
    `  from baseline ${p.baseline}${e.runs > 1 ? ` and ${e.runs - 1} later run(s) under the same rules` : ''}: ${e.cases} cases, ${e.samples} sample(s) each, minAgreement ${agreement(e.min_agreement, e.samples)}, pass rate ${percent(e.pass_rate)}`,
    `  seed ${p.seed}, ${p.repetitions} simulated baseline/run pairs per figure`,
    '',
    `  as it is (${p.current.cases} cases × ${p.current.samples} sample(s)): the gate catches that drop in ${rate(p.current.power)} of runs; false alarms ${rate(p.current.false_alarm)}`,
    '',
    '  samples  cases needed      calls    power  false alarm',
    ...p.options.map((r) => row(r, String(p.max_cases))),
    '',
  ]
  const a = p.amount
  const what = a.gate === 'cost_per_case' ? 'cost' : 'tokens'
  if (a.unmeasured !== null) lines.push(`  ${what} per case: not simulated: ${a.unmeasured}`)
  else if (a.detectable_rise === null)
    lines.push(`  ${what} per case: at ${a.cases} cases, not even a rise of 400% is caught in ${percent(p.power)} of runs; false alarms ${rate(a.false_alarm)}`)
  else {
    lines.push(
      `  ${what} per case: at ${a.cases} cases the gate (tolerance +${(a.tolerance * 100).toFixed(1)}%) catches a rise of +${(a.detectable_rise * 100).toFixed(1)}% or more in ${rate(a.power)} of runs; false alarms ${rate(a.false_alarm)}`,
    )
  }
  return `${lines.join('\n')}\n`
}
