// One false-alarm budget for a whole launch (ADR 0242). Each suite's gates fire at 2.5% one-sided;
// a launch gating twenty suites would fail an unchanged project in about 40% of launches. Here every
// gate of every suite judged in the launch is one hypothesis; Holm's step-down keeps the chance that
// an unchanged project fails anywhere at 2.5%. A gate that fires alone but not under Holm stops
// gating and says why. Pure: a function of the outcomes, so a replayed reporter reaches the same verdict.
import type { Interval } from '../../stats/paired-difference.js'
import { ALPHA } from '../../stats/paired-pass-fail.js'
import { dropBeyond, tooFewToJudge } from '../../stats/gate-rule.js'
import { dropIntervalAt, dropPValue, riseIntervalAt, riseLogRatioPValue } from '../../stats/gate-p-value.js'
import { AMOUNT_UNITS } from './amount-gates.js'
import { statusOf, type SuiteOutcome } from './suite-outcome.js'

export type FamilyWise = 'holm' | 'none'

export const FAMILY_WISE_METHODS: readonly FamilyWise[] = ['holm', 'none']

export interface FamilyGate {
  suite: string
  /** pass_rate, mean_score, cost_per_case, tokens_per_case or latency_per_case. */
  gate: string
  /** The one-sided p-value of the gate's test against its tolerance. */
  p: number
  /** The gate fired on its own (its 95% interval wholly beyond the tolerance). */
  alone: boolean
  /** The one-sided level Holm held it to, α / (m − rank + 1); 0.025 with `none`. */
  level: number
  /** Its interval at that level (two-sided 1 − 2·level): what the launch-wide decision rests on. */
  adjusted: Interval | null
  /** It gates the launch: fired alone, and (under Holm) survived the step-down. */
  regressed: boolean
}

export interface LaunchFamily {
  method: FamilyWise
  /** One-sided level of each gate alone, and the launch-wide budget under Holm. */
  alpha: number
  suites: number
  gates: FamilyGate[]
  /** With `none`: the chance that an unchanged project fails some gate, 1 − (1 − α)^m (gates taken as independent). */
  unchanged_fails: number
}

const REASON_PREFIX: Record<string, string> = { pass_rate: 'pass rate', mean_score: 'mean score', ...AMOUNT_UNITS }

/** The gates one judged suite put to the test: those with an interval that could lie beyond their tolerance. */
type Tested = Omit<FamilyGate, 'level' | 'adjusted' | 'regressed'> & { at: (level: number) => Interval | null }

function gatesOf(o: SuiteOutcome): Tested[] {
  const c = o.comparison
  if (c === undefined || c.status !== 'compared') return []
  const out: Tested[] = []
  const d = c.difference
  if (d?.ci95 != null && !tooFewToJudge(d, c.tolerances.pass_rate))
    out.push({ suite: o.suite, gate: 'pass_rate', p: dropPValue(d, c.tolerances.pass_rate), alone: dropBeyond(d.ci95, c.tolerances.pass_rate), at: (l) => dropIntervalAt(d, l) })
  const s = c.score_difference
  const st = c.tolerances.mean_score
  if (st !== null && s?.ci95 != null) out.push({ suite: o.suite, gate: 'mean_score', p: dropPValue(s, st), alone: dropBeyond(s.ci95, st), at: (l) => dropIntervalAt(s, l) })
  for (const g of c.gates) {
    const ci = g.relative?.ci95
    if (g.tolerance === null || g.unmeasured !== null || g.relative === null || ci == null) continue
    const { mean } = g.relative
    const tolerance = g.tolerance
    out.push({ suite: o.suite, gate: g.gate, p: riseLogRatioPValue(g.n, mean, ci, tolerance), alone: g.regressed, at: (l) => riseIntervalAt(g.n, mean, ci, l) })
  }
  return out
}

/** The launch's outcomes with one family-wise decision over all their gates, and what it rested on. */
export function familyWise(outcomes: readonly SuiteOutcome[], method: FamilyWise): { outcomes: SuiteOutcome[]; family: LaunchFamily } {
  const tested = outcomes.flatMap((o, index) => gatesOf(o).map((g) => ({ ...g, index })))
  const m = tested.length
  const decided: (FamilyGate & { index: number })[] = tested.map(({ at, ...g }) => ({ ...g, level: ALPHA, adjusted: at(ALPHA), regressed: g.alone }))
  if (method === 'holm') {
    const order = decided.map((_, i) => i).sort((a, b) => decided[a]!.p - decided[b]!.p || a - b)
    let stopped = false
    order.forEach((i, rank) => {
      const g = decided[i]!
      g.level = ALPHA / (m - rank)
      g.adjusted = tested[i]!.at(g.level)
      if (!stopped && !(g.p < g.level)) stopped = true
      g.regressed = g.alone && !stopped
    })
  }
  const adjusted = outcomes.map((o, index) => {
    const mine = decided.filter((g) => g.index === index)
    const c = o.comparison
    const held = mine.filter((g) => g.alone && !g.regressed)
    if (c === undefined || c.status !== 'compared' || held.length === 0) return o
    const heldPrefixes = held.map((g) => REASON_PREFIX[g.gate]!)
    const reasons = c.reasons.filter((r) => !heldPrefixes.some((p) => r.startsWith(p)))
    const warnings = [
      ...c.warnings,
      ...held.map(
        (g) =>
          `the ${REASON_PREFIX[g.gate]} gate would regress on its own (p = ${g.p.toPrecision(2)}), but not under the launch's family-wise budget: Holm over ${m} gates held it to p < ${g.level.toPrecision(2)}, so it does not gate`,
      ),
    ]
    const comparison = { ...c, reasons, warnings, regressed: reasons.length > 0 }
    return { ...o, comparison, status: statusOf(o.aggregates, { met: o.misses.length === 0, misses: o.misses }, comparison) }
  })
  const suites = new Set(decided.map((g) => g.index)).size
  const family: LaunchFamily = {
    method,
    alpha: ALPHA,
    suites,
    gates: decided.map(({ index: _index, ...g }) => g),
    unchanged_fails: 1 - (1 - ALPHA) ** m,
  }
  return { outcomes: adjusted, family }
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`

/** The launch-wide line under the suites' verdicts; undefined when fewer than two gates were tested (nothing to share). */
export function describeFamily(f: LaunchFamily): string | undefined {
  if (f.gates.length < 2) return undefined
  const where = `${f.gates.length} gates of ${f.suites} suite${f.suites === 1 ? '' : 's'}`
  if (f.method === 'none')
    return `launch-wide: familyWise 'none': ${where} each fire at ${pct(f.alpha)} alone, so an unchanged project fails some gate in up to ${pct(f.unchanged_fails)} of launches`
  const fired = f.gates.filter((g) => g.alone)
  const held = fired.filter((g) => !g.regressed)
  const tail =
    held.length === 0
      ? ''
      : `; ${held.length} gate(s) that fired alone do not gate: ${held.map((g) => `${g.suite} ${g.gate.replaceAll('_', ' ')} (p = ${g.p.toPrecision(2)})`).join(', ')}`
  return `launch-wide: Holm over ${where} keeps the chance that an unchanged project fails anywhere at ${pct(f.alpha)} (alone, ${pct(f.unchanged_fails)})${tail}`
}
