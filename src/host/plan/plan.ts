// `digline plan`: from the baseline's per-case results (and any later runs under the same rules),
// how many cases and samples a run needs so that the pass-rate gate catches a drop of a given size
// with a given power, the gate's false-alarm rate at that size, and the smallest rise of cost (or
// tokens) per case the current suite can catch. Seeded simulation through the gate's own rule (ADR 0066).
import type { BaselineDocument } from '../../document/baseline.js'
import type { CaseResult, RunDocument } from '../../document/schema.js'
import { requiredPasses } from '../../driver/execute.js'
import { NoBaselineError, SharesNotSizedError } from './errors.js'
import { UsageError } from '../errors.js'
import { amountGateRate, passChance, passGateRate, shareGateRate } from '../../stats/gate-power.js'
import { fitCasePrior, posteriorChances, type BetaPrior, type CaseCounts } from '../../stats/case-population.js'
import { millerCases, millerDetectable } from '../../stats/closed-form-size.js'
import { pairCases, verdictDifferenceOf } from '../../stats/paired-difference.js'
import { seededRandom } from '../../stats/prng.js'
import { expectedSamples, type SamplingBounds } from '../../stats/sampling-stop.js'
import type { Store } from '../../store/contract.js'
import { amountOf } from '../judge/amount-gates.js'
import { sameRulesAndTarget } from '../judge/same-history.js'

export interface PlanOptions {
  /** The drop of the pass rate to catch (absolute, 0..1). */
  detect: number
  /** The share of runs with that drop the gate should flag. */
  power: number
  seed: number
  /** Simulated baseline/run pairs per figure (default 1000). */
  repetitions?: number
  /** The largest suite considered (default 5000 cases). */
  maxCases?: number
  /** Sample counts to size the suite for, beside the suite's own (default 1, 3, 5). */
  samples?: readonly number[]
}

export type GateForm = 'verdicts' | 'samples'

export interface PlanRow {
  /** The gate sized: `verdicts` pairs each case's verdict; `samples` each case's share of passing samples (ADR 0122). */
  gate: GateForm
  /** Samples per case; with `min_samples`, the most a case takes. */
  samples: number
  /**
   * Adaptive samples (ADR 0360): the fewest a case takes. Its verdicts are those of `samples` fixed
   * samples, so the cases and power are that row's; `calls` is what the stopping rule is expected to take.
   */
  min_samples?: number
  /** Cases needed; null when even maxCases does not reach the power. */
  cases: number | null
  /** cases × samples (with adaptive samples, the expected samples per case): the target calls of one run. */
  calls: number | null
  /** At that size: the share of runs with the drop that the gate flags (the search's seed), and of unchanged runs. */
  power: number | null
  /** The power at that size measured again with a fresh seed and twice the repetitions: the figure to believe (ADR 0241). */
  rechecked_power: number | null
  false_alarm: number | null
  /** Miller's closed-form size for the same drop, from the same case population (normal approximation). */
  closed_form: number | null
}

export interface CurrentRow extends PlanRow {
  /** The smallest drop the suite as it is catches with the asked power: by simulation, and in closed form; null when not even a drop to zero is. */
  detectable: number | null
  detectable_closed_form: number | null
}
export interface AmountPlan {
  gate: 'cost_per_case' | 'tokens_per_case'
  cases: number
  tolerance: number
  /** The smallest relative rise per case caught with the asked power at the current size; null when even +400% is not. */
  detectable_rise: number | null
  power: number | null
  /** The share of unchanged runs the gate flags at the current size. */
  false_alarm: number | null
  /** Why the figure could not be simulated; null when it was. */
  unmeasured: string | null
}

export interface Plan {
  suite: string
  baseline: string
  config_hash: string
  seed: number
  repetitions: number
  /** The largest suite the search considered. */
  max_cases: number
  detect: number
  power: number
  /** The suite's pass-rate tolerance, which the simulated gate uses. */
  tolerance: number
  /** What the per-case estimates rest on; `spread` is the beta-binomial fit of the cases' chances (ADR 0241). */
  evidence: { runs: number; cases: number; samples: number; min_samples?: number; min_agreement: number; pass_rate: number; gate_on: GateForm; spread: BetaPrior }
  /** The suite as it is: its cases, samples and gate, how that gate fares against the drop, and the smallest drop it catches. */
  current: CurrentRow
  /** Per gate form and sample count: the cases needed. */
  options: PlanRow[]
  /** When the cases name clusters: how many, and the design effect measured between the baseline and the later runs (null with none); the sizes are multiplied by it (ADR 0243). */
  clusters: { count: number; design_effect: number | null; runs: number } | null
  amount: AmountPlan
}

const MAX_RISE = 4

/** Per case of the baseline: its passed samples and samples, pooled over the runs. */
function caseCounts(baseline: RunDocument, others: readonly RunDocument[]): CaseCounts[] {
  const counts = new Map<string, CaseCounts>()
  for (const r of baseline.results) if (r.verdict !== 'error') counts.set(r.case_id, { passed: r.passed_samples, samples: r.samples.length || baseline.rules.samples })
  for (const doc of others) {
    for (const r of doc.results) {
      const c = counts.get(r.case_id)
      if (c === undefined || r.verdict === 'error') continue
      c.passed += r.passed_samples
      c.samples += r.samples.length || doc.rules.samples
    }
  }
  return [...counts.values()]
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length

/** Chances drawn per case from its posterior: enough that the population's mean and spread are not themselves noise. */
const DRAWS_PER_CASE = 16

/** A seed per figure, so a figure does not depend on which figures were computed before it. */
const seedFor = (seed: number, ...parts: number[]): number => parts.reduce((s, p) => (Math.imul(s ^ p, 0x9e3779b1) + 0x7f4a7c15) >>> 0, seed >>> 0)

const SEARCH = 1
const ALARM = 2
const RECHECK = 7
const FORM_SALT: Record<GateForm, number> = { verdicts: 0, samples: 0x5a }

/** One gate form at one sample count, over the population of per-sample chances: how it fares for a drop. */
interface Sizer {
  gate: GateForm
  samples: number
  /** The gate's rate (power when `dropped`, false alarms otherwise) at `cases`, with `repetitions`, from `seed`. */
  rate(cases: number, dropped: boolean, seed: number, repetitions: number): number
  /** σ of one case's paired difference under the drop: what Miller's formula needs. */
  sd: number
}

function sizer(chances: readonly number[], gate: GateForm, samples: number, minAgreement: number, detect: number, tolerance: number): Sizer {
  if (gate === 'samples') {
    const factor = Math.max(0, 1 - detect / mean(chances))
    const worse = chances.map((q) => q * factor)
    let squares = 0
    chances.forEach((q, i) => {
      const r = worse[i]!
      squares += (q * (1 - q) + r * (1 - r)) / samples + (r - q) ** 2
    })
    const sd = Math.sqrt(Math.max(0, squares / chances.length - detect ** 2))
    return {
      gate,
      samples,
      sd,
      rate: (cases, dropped, seed, repetitions) => shareGateRate(seededRandom(seed), { base: chances, run: dropped ? worse : chances, samples, cases, repetitions, tolerance }),
    }
  }
  const required = requiredPasses(minAgreement, samples)
  const base = chances.map((q) => passChance(q, samples, required))
  const worse = droppedChances(chances, samples, required, detect)
  let discordant = 0
  base.forEach((b, i) => {
    const r = worse[i]!
    discordant += b * (1 - r) + r * (1 - b)
  })
  const shift = mean(base) - mean(worse)
  const sd = Math.sqrt(Math.max(0, discordant / base.length - shift ** 2))
  return {
    gate,
    samples,
    sd,
    rate: (cases, dropped, seed, repetitions) => passGateRate(seededRandom(seed), { base, run: dropped ? worse : base, cases, repetitions, tolerance }),
  }
}

/** The per-sample cut that lowers the expected pass rate by exactly `detect` (bisection). */
function droppedChances(rates: readonly number[], samples: number, required: number, detect: number): number[] {
  const chances = (factor: number) => rates.map((q) => passChance(q * factor, samples, required))
  const target = mean(chances(1)) - detect
  let lo = 0
  let hi = 1
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2
    if (mean(chances(mid)) > target) hi = mid
    else lo = mid
  }
  return chances(lo)
}

function sizeFor(z: Sizer, options: Required<PlanOptions>, tolerance: number): PlanRow {
  const salt = (cases: number, what: number) => seedFor(options.seed, z.samples, cases, what, FORM_SALT[z.gate])
  const powerAt = (cases: number) => z.rate(cases, true, salt(cases, SEARCH), options.repetitions)
  const recheckAt = (cases: number) => z.rate(cases, true, salt(cases, RECHECK), options.repetitions * 2)
  const closed = millerCases(z.sd, options.detect, tolerance, options.power)
  const none: PlanRow = { gate: z.gate, samples: z.samples, cases: null, calls: null, power: null, rechecked_power: null, false_alarm: null, closed_form: closed }
  let lo = 1
  let hi = 10
  while (powerAt(hi) < options.power) {
    if (hi >= options.maxCases) return none
    lo = hi
    hi = Math.min(options.maxCases, hi * 2)
  }
  // Down to 2% of the answer: the power is itself an estimate, finer steps only chase its noise.
  while (hi - lo > Math.max(1, Math.ceil(hi * 0.02))) {
    const mid = Math.floor((lo + hi) / 2)
    if (powerAt(mid) >= options.power) hi = mid
    else lo = mid
  }
  // The search stops at the first size whose estimate clears the power, so it favours sizes whose
  // estimate came out high. A fresh seed measures the size again; short of the power, the size grows.
  let rechecked = recheckAt(hi)
  for (let step = 0; rechecked < options.power && step < 40 && hi < options.maxCases; step++) {
    hi = Math.min(options.maxCases, hi + Math.max(1, Math.ceil(hi * 0.03)))
    rechecked = recheckAt(hi)
  }
  if (rechecked < options.power) return none
  return { ...none, cases: hi, calls: hi * z.samples, power: powerAt(hi), rechecked_power: rechecked, false_alarm: z.rate(hi, false, salt(hi, ALARM), options.repetitions) }
}

/** The suite as it is: its power and false alarms for the drop, and the smallest drop it catches. */
function currentFor(
  chances: readonly number[],
  form: GateForm,
  samples: number,
  minAgreement: number,
  suiteCases: number,
  designEffect: number,
  options: Required<PlanOptions>,
  tolerance: number,
  passRate: number,
): CurrentRow {
  // Clustered cases count as fewer independent ones: n / design effect.
  const cases = Math.max(2, Math.round(suiteCases / designEffect))
  const at = (detect: number) => sizer(chances, form, samples, minAgreement, detect, tolerance)
  const z = at(options.detect)
  const salt = (what: number, detect = 0) => seedFor(options.seed, samples, cases, what, FORM_SALT[form], Math.round(detect * 1e6))
  const power = z.rate(cases, true, salt(SEARCH), options.repetitions)
  const row: CurrentRow = {
    gate: form,
    samples,
    cases: suiteCases,
    calls: suiteCases * samples,
    power,
    rechecked_power: z.rate(cases, true, salt(RECHECK), options.repetitions * 2),
    false_alarm: z.rate(cases, false, salt(ALARM), options.repetitions),
    closed_form: scaled(millerCases(z.sd, options.detect, tolerance, options.power), designEffect),
    detectable: null,
    detectable_closed_form: null,
  }
  const largest = form === 'samples' ? mean(chances) : passRate
  row.detectable_closed_form = millerDetectable((d) => at(d).sd, cases, tolerance, options.power, largest)
  const caught = (detect: number) => at(detect).rate(cases, true, salt(SEARCH, detect), options.repetitions) >= options.power
  let lo = tolerance
  let hi = largest * 0.999
  if (!(hi > lo) || !caught(hi)) return row
  while (hi - lo > 0.001) {
    const mid = (lo + hi) / 2
    if (caught(mid)) hi = mid
    else lo = mid
  }
  row.detectable = Math.ceil(hi * 1000) / 1000
  return row
}

function tokensOf(result: CaseResult): number[] | undefined {
  const out: number[] = []
  for (const s of result.samples) {
    if (s.usage === undefined) return undefined
    out.push(s.usage.input_tokens + s.usage.output_tokens)
  }
  return out
}

/** Ratios of one measurement to its case's mean: per sample when there are several, else per run. */
function wobbleOf(docs: readonly RunDocument[], gate: AmountPlan['gate'], samples: number): { wobble: number[]; perCase: number } | undefined {
  const wobble: number[] = []
  if (samples >= 2) {
    for (const doc of docs)
      for (const r of doc.results) {
        const tokens = r.verdict === 'error' ? undefined : tokensOf(r)
        const m = tokens === undefined ? 0 : mean(tokens)
        if (m > 0) for (const t of tokens!) wobble.push(t / m)
      }
    return wobble.length === 0 ? undefined : { wobble, perCase: samples }
  }
  const perCase = new Map<string, number[]>()
  for (const doc of docs)
    for (const r of doc.results) {
      const v = r.verdict === 'error' ? undefined : amountOf(gate, r)
      if (v !== undefined) perCase.set(r.case_id, [...(perCase.get(r.case_id) ?? []), v])
    }
  for (const values of perCase.values()) {
    const m = mean(values)
    if (values.length >= 2 && m > 0) for (const v of values) wobble.push(v / m)
  }
  return wobble.length === 0 ? undefined : { wobble, perCase: 1 }
}

function amountPlan(baseline: RunDocument, others: readonly RunDocument[], options: Required<PlanOptions>): AmountPlan {
  const judged = baseline.results.filter((r) => r.verdict !== 'error')
  const gate: AmountPlan['gate'] = judged.length > 0 && judged.every((r) => r.target_cost !== undefined) ? 'cost_per_case' : 'tokens_per_case'
  const tolerance = baseline.rules.tolerances[gate] ?? 0
  const out: AmountPlan = { gate, cases: judged.length, tolerance, detectable_rise: null, power: null, false_alarm: null, unmeasured: null }
  const amounts = judged.map((r) => amountOf(gate, r))
  if (amounts.length === 0 || amounts.some((a) => a === undefined)) return { ...out, unmeasured: 'the baseline recorded no usage for some of its cases' }
  const spread = wobbleOf([baseline, ...others], gate, baseline.rules.samples)
  if (spread === undefined) {
    return {
      ...out,
      unmeasured:
        'with one sample per case and one run under these rules, nothing shows how much a case’s usage varies between runs; run the suite again under the same rules, or with samples ≥ 2',
    }
  }
  const draw = { amounts: amounts as number[], ...spread, cases: judged.length, repetitions: options.repetitions, tolerance }
  const rateAt = (rise: number, salt: number) => amountGateRate(seededRandom(seedFor(options.seed, Math.round(rise * 1e6), salt)), { ...draw, rise })
  out.false_alarm = rateAt(0, 3)
  if (rateAt(MAX_RISE, 4) < options.power) return out
  let lo = 0
  let hi = MAX_RISE
  while (hi - lo > 0.0005) {
    const mid = (lo + hi) / 2
    if (rateAt(mid, 4) >= options.power) hi = mid
    else lo = mid
  }
  const rise = Math.ceil(hi * 1000) / 1000
  return { ...out, detectable_rise: rise, power: rateAt(rise, 4) }
}

/** The samples a case takes on average under adaptive samples, over the population's chances. */
function meanSamples(chances: readonly number[], bounds: SamplingBounds): number {
  const memo = new Map<number, number>()
  let sum = 0
  for (const q of chances) {
    // Rounded to a thousandth: the chances are draws, and the stopping rule's mean moves little within that.
    const key = Math.round(q * 1000)
    let e = memo.get(key)
    if (e === undefined) memo.set(key, (e = expectedSamples(key / 1000, bounds)))
    sum += e
  }
  return sum / chances.length
}

/** The adaptive row beside the fixed row at its max: the same verdicts, so the same cases and power; the expected calls. */
function adaptiveRow(fixed: PlanRow, min: number, perCase: number): PlanRow {
  return { ...fixed, min_samples: min, calls: fixed.cases === null ? null : Math.round(fixed.cases * perCase) }
}

const scaled = (cases: number | null, effect: number): number | null => (cases === null ? null : Math.ceil(cases * effect))

function scaleRow(r: PlanRow, effect: number): PlanRow {
  const cases = scaled(r.cases, effect)
  const perCase = r.min_samples === undefined || r.cases === null || r.calls === null ? r.samples : r.calls / r.cases
  return { ...r, cases, calls: cases === null ? null : Math.round(cases * perCase), closed_form: scaled(r.closed_form, effect) }
}

/** The baseline's clusters, and the mean design effect of the pass-rate difference between it and each later run under the same rules (an unchanged pair). */
function clusterEvidence(baseline: RunDocument, others: readonly RunDocument[]): Plan['clusters'] {
  const labels = new Set(baseline.results.flatMap((r) => (r.cluster === undefined ? [] : [r.cluster])))
  if (labels.size === 0) return null
  const effects = others.flatMap((doc) => {
    const d = verdictDifferenceOf(pairCases(baseline.results, doc.results).pairs)
    return d?.method === 'cluster' && d.design_effect !== undefined ? [d.design_effect] : []
  })
  return { count: labels.size, design_effect: effects.length === 0 ? null : mean(effects), runs: effects.length }
}

/** The plan from what the store already holds: no I/O. */
export function planFrom(baseline: BaselineDocument, others: readonly RunDocument[], options: PlanOptions): Plan {
  const full: Required<PlanOptions> = { repetitions: 1000, maxCases: 5000, samples: [1, 3, 5], ...options }
  const counts = caseCounts(baseline, others)
  const spread = fitCasePrior(counts)
  const chances = posteriorChances(counts, spread, DRAWS_PER_CASE, seededRandom(seedFor(full.seed, 0xca5e)))
  const { samples, min_agreement } = baseline.rules
  const form: GateForm = baseline.rules.gate_on === 'samples' ? 'samples' : 'verdicts'
  if (form === 'samples' && baseline.rules.min_samples !== undefined) {
    throw new SharesNotSizedError(
      `refused to plan suite ${baseline.suite}: it takes ${baseline.rules.min_samples} to ${samples} samples per case (adaptive) and gates on each case's share of passing samples, and where a case stopped shapes its share, which this plan's simulation of fixed samples does not model; nothing was sized`,
      `drop gateOn: 'samples' from suite ${baseline.suite} (its verdict gate is sized as for ${samples} fixed samples), promote a run of it, then \`digline plan --suite ${baseline.suite} --detect ${full.detect}\``,
      ['gateOn'],
    )
  }
  const tolerance = baseline.rules.tolerances.pass_rate ?? 0
  const passRate = baseline.aggregates.pass_rate ?? 0
  const sampleCounts = [...new Set([samples, ...full.samples])].sort((a, b) => a - b)
  const forms: GateForm[] = ['verdicts', 'samples']
  const clusters = clusterEvidence(baseline, others)
  const effect = Math.max(1, clusters?.design_effect ?? 1)
  const fixedRows = forms.flatMap((gate) =>
    sampleCounts.filter((k) => gate === 'verdicts' || k >= 2).map((k) => sizeFor(sizer(chances, gate, k, min_agreement, full.detect, tolerance), full, tolerance)),
  )
  // Adaptive samples: a case's verdict is the one `samples` fixed samples give (ADR 0360), so the gate
  // fares as at `samples`; only the calls differ, by the samples the stopping rule takes on average.
  const min = baseline.rules.min_samples
  const bounds = min === undefined ? undefined : { min, max: samples, required: requiredPasses(min_agreement, samples) }
  const perCase = bounds === undefined ? samples : meanSamples(chances, bounds)
  const rows = fixedRows.flatMap((r) => (min !== undefined && r.gate === 'verdicts' && r.samples === samples ? [r, adaptiveRow(r, min, perCase)] : [r]))
  const current = currentFor(chances, form, samples, min_agreement, counts.length, effect, full, tolerance, passRate)
  return {
    suite: baseline.suite,
    baseline: baseline.promoted_from,
    config_hash: baseline.config_hash,
    seed: full.seed,
    repetitions: full.repetitions,
    max_cases: full.maxCases,
    detect: full.detect,
    power: full.power,
    tolerance,
    evidence: {
      runs: 1 + others.length,
      cases: counts.length,
      samples,
      ...(min === undefined ? {} : { min_samples: min }),
      min_agreement,
      pass_rate: passRate,
      gate_on: form,
      spread,
    },
    current: min === undefined ? current : { ...current, min_samples: min, calls: Math.round(counts.length * perCase) },
    options: effect === 1 ? rows : rows.map((r) => scaleRow(r, effect)),
    clusters,
    amount: amountPlan(baseline, others, full),
  }
}

/** Runs under the baseline's rules besides the baseline itself, newest first (at most this many). */
const OTHER_RUNS = 9

/** The plan for a suite of the store: its baseline, and its latest runs under the same rules. */
export async function planSuite(store: Pick<Store, 'readBaseline' | 'listRuns' | 'readRun'>, tenant: string, suite: string, options: PlanOptions): Promise<Plan> {
  const baseline = await store.readBaseline(tenant, suite)
  if (baseline === undefined) {
    throw new NoBaselineError(
      `suite ${suite} of tenant ${tenant} has no baseline, so digline plan has no per-case results to size the suite from`,
      `promote a run first: \`digline promote --suite ${suite} --run KEY\` (\`digline list --suite ${suite}\` lists the keys)`,
      ['--suite'],
    )
  }
  const passRate = baseline.aggregates.pass_rate ?? 0
  if (options.detect >= passRate) {
    throw new UsageError(`digline plan: a drop of ${options.detect} is not smaller than the pass rate of suite ${suite}'s baseline (${passRate})`, 'Pass a smaller --detect.', [
      '--detect',
    ])
  }
  const tolerance = baseline.rules.tolerances.pass_rate ?? 0
  if (options.detect <= tolerance + 1e-9) {
    // Issue 23 item 18: every row would say "more than 5000 cases", with no reason.
    throw new UsageError(
      `digline plan: a drop of ${(options.detect * 100).toFixed(1)} points is never a regression of suite ${suite}: its tolerances.passRate allows a drop of ${(tolerance * 100).toFixed(1)} points, and the gate flags only a drop beyond the tolerance, so no number of cases catches it`,
      `Pass a --detect larger than the tolerance, e.g. \`digline plan --suite ${suite} --detect ${Math.min(0.99, Math.round((tolerance + 0.05) * 100) / 100)}\`.`,
      ['--detect'],
    )
  }
  const listing = await store.listRuns(tenant, suite)
  const keys = listing.runs
    .flatMap((r) => (r.header !== undefined && sameRulesAndTarget(r.header, baseline) && r.header.rejudged_from === undefined && r.key !== baseline.promoted_from ? [r.key] : []))
    .slice(-OTHER_RUNS)
  const others: RunDocument[] = []
  for (const key of keys) others.push(await store.readRun(tenant, suite, key))
  return planFrom(baseline, others, options)
}
