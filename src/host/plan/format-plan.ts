// `digline plan` in words: what the figures rest on, the table of sizes, and the cost figure.
import { requiredPasses } from '../../driver/case-verdict.js'
import { percent } from '../judge/percent.js'
import type { CurrentRow, GateForm, Plan, PlanRow } from './plan.js'

const pts = (x: number): string => `${(x * 100).toFixed(1)} points`
const rate = (x: number | null): string => (x === null ? '—' : percent(x))
// 2/3 is kept as 0.6666666666666666: say it as a person wrote it, with the passes it asks for.
const agreement = (share: number, samples: number): string => `${Number(share.toFixed(3))} (${requiredPasses(share, samples)} of ${samples} samples)`
const FORM_WORDS: Record<GateForm, string> = { verdicts: 'verdicts', samples: 'shares' }

function row(r: PlanRow, maxCases: string): string {
  const cases = r.cases === null ? `more than ${maxCases}` : String(r.cases)
  const closed = r.closed_form === null ? '—' : String(r.closed_form)
  const samples = r.min_samples === undefined ? String(r.samples) : `${r.min_samples}–${r.samples}`
  return `  ${FORM_WORDS[r.gate].padEnd(8)}  ${samples.padStart(7)}  ${cases.padStart(16)}  ${closed.padStart(11)}  ${(r.calls === null ? '—' : String(r.calls)).padStart(8)}  ${rate(r.power).padStart(7)}  ${rate(r.rechecked_power).padStart(9)}  ${rate(r.false_alarm).padStart(11)}`
}

function current(c: CurrentRow, p: Plan): string[] {
  const basis = c.gate === 'samples' ? " (gateOn: 'samples')" : ''
  const detectable =
    c.detectable === null
      ? `no drop the pass rate can take is caught in ${percent(p.power)} of runs`
      : `the smallest drop caught in ${percent(p.power)} of runs is ${pts(c.detectable)} (closed form: ${c.detectable_closed_form === null ? '—' : pts(c.detectable_closed_form)})`
  return [
    `  as it is (${c.cases} cases × ${samplesOf(c)}${basis}): the gate catches that drop in ${rate(c.power)} of runs (fresh seed: ${rate(c.rechecked_power)}); false alarms ${rate(c.false_alarm)}`,
    `  at this size ${detectable}`,
  ]
}

/** "3 sample(s)", or with adaptive samples "2 to 6 samples (about 4.1 a case, 164 calls)". */
function samplesOf(c: CurrentRow): string {
  if (c.min_samples === undefined || c.cases === null || c.calls === null) return `${c.samples} sample(s)`
  return `${c.min_samples} to ${c.samples} samples (about ${(c.calls / c.cases).toFixed(1)} a case, ${c.calls} calls)`
}

function clusterLines(p: Plan): string[] {
  const c = p.clusters
  if (c === null) return []
  if (c.design_effect === null)
    return [`  cases come in ${c.count} clusters; their design effect is unknown with one run under these rules, so the sizes take cases as independent (a second run measures it)`]
  const effect = Math.max(1, c.design_effect)
  return [
    `  cases come in ${c.count} clusters: design effect ${c.design_effect.toFixed(2)} (baseline against ${c.runs} later run(s)); the sizes below are independent-case sizes × ${effect.toFixed(2)}, and the suite as it is counts as ${Math.max(2, Math.round(p.current.cases! / effect))} independent cases`,
  ]
}

export function formatPlan(p: Plan): string {
  const e = p.evidence
  const spread = e.spread.identified
    ? `cases' chances fitted as Beta with mean ${percent(e.spread.mean)}, concentration ${Number(e.spread.concentration.toPrecision(3))}`
    : 'every case was seen in one sample only, so how a case varies between samples is unknown: the plan takes each case as unsure as the suite (the cautious reading); a second run under the same rules sharpens it'
  const lines = [
    `digline plan ${p.suite}: catching a drop of ${pts(p.detect)} in ${percent(p.power)} of runs (tolerance ${pts(p.tolerance)})`,
    `  from baseline ${p.baseline}${e.runs > 1 ? ` and ${e.runs - 1} later run(s) under the same rules` : ''}: ${e.cases} cases, ${e.min_samples === undefined ? `${e.samples} sample(s) each` : `${e.min_samples} to ${e.samples} samples each (adaptive)`}, minAgreement ${agreement(e.min_agreement, e.samples)}, pass rate ${percent(e.pass_rate)}`,
    `  ${spread}`,
    `  seed ${p.seed}, ${p.repetitions} simulated baseline/run pairs per figure (${p.repetitions * 2} for the fresh-seed check)`,
    '',
    ...current(p.current, p),
    ...clusterLines(p),
    '',
    "  verdicts: each case by its verdict (a drop of the pass rate); shares: by its share of passing samples (gateOn: 'samples', a drop of that share)",
    ...(p.evidence.min_samples === undefined
      ? []
      : [
          `  ${p.evidence.min_samples}–${p.evidence.samples}: adaptive samples; a case's verdict is the one ${p.evidence.samples} samples give, so cases and power are that row's, and calls are the samples the stopping rule takes on average`,
        ]),
    "  closed form: Miller's n = ((z_α + z_β)·σ_d / (drop − tolerance))², from the same case population",
    '  gate      samples      cases needed  closed form     calls    power  rechecked  false alarm',
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
