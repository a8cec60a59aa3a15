// A run against its suite's baseline: the aggregates side by side, the paired difference over the
// shared cases with its 95% interval, the flipped cases, and whether it regressed (ADR 0010).
import type { BaselineDocument } from '../../document/baseline.js'
import type { Aggregates, CaseResult, RunDocument } from '../../document/schema.js'
import { hasBorderline } from '../../document/borderline-cases.js'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { UnreadableBaselineError } from '../../store/errors.js'
import { differenceOf, pairCases, scoreValue, verdictDifferenceOf, type PairedDifference } from '../../stats/paired-difference.js'
import { dropBeyond, tooFewToJudge } from '../../stats/gate-rule.js'
import type { Store } from '../../store/contract.js'
import { keyFor } from '../../suite/keys.js'
import { changedTrajectories } from './trajectory-changes.js'
import { AMOUNT_GATES, amountGate, amountReason, reportsSteps, TRAJECTORY_GATES, type AmountGate } from './amount-gates.js'
import { flakyCases, type CaseHistory, type FlakyCases } from './flaky-cases.js'
import { sameRulesAndTarget } from './same-history.js'
import { tagBreakdown, type TagSlice } from './tag-breakdown.js'
import { runChanges, type RunChanges } from './run-changes.js'
import { baselineOf } from '../../document/baseline.js'

export interface ComparedSide {
  key: string
  config_hash: string
  aggregates: Aggregates
}

export interface ComparedBaseline {
  /** `not-comparable`: the baseline was judged by other rules; the figures are shown but do not gate. */
  status: 'compared' | 'not-comparable'
  suite: string
  /** What the run is held against: the suite's baseline, or another run (`digline compare --against`, ADR 0230). */
  reference: 'baseline' | 'run'
  /** The baseline, or the run compared against; for a run, `promoted_at` is its created_at. */
  baseline: ComparedSide & { promoted_at: string }
  run: ComparedSide
  /** Cases judged in both runs: the difference is taken over these. */
  shared: number
  added: string[]
  removed: string[]
  /** Cases in both runs that errored in either; excluded from the difference. */
  excluded: string[]
  /** Pass rate of the run minus the baseline's, paired over the shared cases. */
  difference: PairedDifference | null
  /** Mean score of the run minus the baseline's, paired the same way. */
  score_difference: PairedDifference | null
  flipped: { pass_to_fail: string[]; fail_to_pass: string[] }
  /** Flipped cases with a borderline score in either run (ADR 0262): flips at the threshold. */
  borderline_flips: string[]
  /** Shared cases whose tool calls (names in order, per sample) differ from the baseline's; only when a run reported steps. */
  trajectories_changed?: string[]
  /** The drops allowed (absolute, 0..1) and the rises allowed (relative); null when the suite sets no tolerance for it. */
  tolerances: {
    pass_rate: number
    mean_score: number | null
    cost_per_case: number | null
    tokens_per_case: number | null
    latency_per_case: number | null
    tool_calls_per_case: number | null
    steps_per_case: number | null
  }
  /** Cost, tokens and latency per case against the baseline, each with its interval; a gate with a null tolerance is shown, not gating. */
  gates: AmountGate[]
  /** Shared cases whose samples disagree: their flips are expected noise. */
  flaky: FlakyCases
  regressed: boolean
  /** Why it regressed, one sentence each; empty when it did not. */
  reasons: string[]
  /** What changed between the two runs: target config keys, observed models, files recorded by hash. */
  changes: RunChanges
  /** What a reader must know about the comparison itself. */
  warnings: string[]
  /** Every metric by tag, against the baseline's cases of the tag; absent when no case of the run has a tag. */
  tags?: TagSlice[]
}

export interface UnreadableBaseline {
  status: 'unreadable'
  suite: string
  problem: DiglineErrorData
  regressed: false
  reasons: string[]
  warnings: string[]
}

export type BaselineComparison = ComparedBaseline | UnreadableBaseline

const sign = (x: number): string => (x > 0 ? '+' : x < 0 ? '−' : '')
const points = (x: number): string => `${sign(x)}${Math.abs(x * 100).toFixed(1)}`
const score = (x: number): string => `${sign(x)}${Math.abs(x).toFixed(3)}`
const belowWhat = (tolerance: number, shown: (t: number) => string): string => (tolerance === 0 ? 'zero (the suite allows no drop)' : `the tolerance of ${shown(tolerance)}`)

/** A case's share of passing samples; a case with no recorded sample counts by its verdict. */
const sampleShare = (result: CaseResult): number => (result.samples.length === 0 ? (result.verdict === 'pass' ? 1 : 0) : result.passed_samples / result.samples.length)

function runKey(doc: RunDocument): string {
  return keyFor(doc.created_at, doc.config_hash)
}

function flippedOf(pairs: readonly [CaseResult, CaseResult][]): ComparedBaseline['flipped'] {
  const flipped: ComparedBaseline['flipped'] = { pass_to_fail: [], fail_to_pass: [] }
  for (const [b, r] of pairs) {
    if (b.verdict === 'pass' && r.verdict === 'fail') flipped.pass_to_fail.push(r.case_id)
    else if (b.verdict === 'fail' && r.verdict === 'pass') flipped.fail_to_pass.push(r.case_id)
  }
  return flipped
}

function borderlineFlips(pairs: readonly [CaseResult, CaseResult][]): string[] {
  return pairs.flatMap(([b, r]) => (b.verdict !== r.verdict && b.verdict !== 'error' && r.verdict !== 'error' && (hasBorderline(b) || hasBorderline(r)) ? [r.case_id] : []))
}

/** The run against the baseline. Pure: no I/O. */
/** Whether promote would take this run at all (hints name only commands that would be accepted, SPEC §7). */
function promotableAfterReview(run: RunDocument): boolean {
  return run.rejudged_from === undefined && run.cached_answers === undefined && run.aggregates.errored === 0 && run.slice === undefined
}

export function compareRuns(
  baseline: BaselineDocument,
  run: RunDocument,
  recent: readonly RunDocument[] = [],
  reference: ComparedBaseline['reference'] = 'baseline',
): ComparedBaseline {
  const pairing = pairCases(baseline.results, run.results)
  // A slice leaves the suite's other cases out by design: they are not "removed since the baseline".
  if (run.slice !== undefined) pairing.removed = []
  // ADR 0122: with `gateOn: 'samples'` each case counts by its share of passing samples (a t interval).
  const onSamples = run.rules.gate_on === 'samples'
  const difference = (onSamples ? differenceOf(pairing.pairs, sampleShare) : verdictDifferenceOf(pairing.pairs)) ?? null
  const scoreDifference = differenceOf(pairing.pairs, scoreValue) ?? null
  const t = run.rules.tolerances
  const tolerances = {
    pass_rate: t.pass_rate ?? 0,
    mean_score: t.mean_score ?? null,
    cost_per_case: t.cost_per_case ?? null,
    tokens_per_case: t.tokens_per_case ?? null,
    latency_per_case: t.latency_per_case ?? null,
    tool_calls_per_case: t.tool_calls_per_case ?? null,
    steps_per_case: t.steps_per_case ?? null,
  }
  // A replay asks no target: it has no cost, tokens or latency of its own to compare.
  const gateNames = reportsSteps(pairing.pairs) ? [...AMOUNT_GATES, ...TRAJECTORY_GATES] : AMOUNT_GATES
  const gates = run.rejudged_from === undefined ? gateNames.map((g) => amountGate(g, pairing.pairs, tolerances[g])) : []
  const warnings: string[] = []
  const reasons: string[] = []
  const key = runKey(run)
  const comparable = baseline.config_hash === run.config_hash && baseline.suite === run.suite
  if (baseline.suite !== run.suite) {
    warnings.push(`the baseline is of suite ${baseline.suite}, not ${run.suite}: the figures below are for information and do not gate`)
  } else if (!comparable && reference === 'run') {
    warnings.push(
      `run ${baseline.promoted_from} was judged under config_hash ${baseline.config_hash} and run ${key} under ${run.config_hash}: the rules differ, so the figures below are for information and do not gate`,
    )
  } else if (!comparable) {
    warnings.push(
      `the baseline (${baseline.promoted_from}) was judged under config_hash ${baseline.config_hash} and this run under ${run.config_hash}: ` +
        `the rules differ, so the figures below are for information and do not gate.${promotableAfterReview(run) ? ` After review: digline promote --suite ${run.suite} --run ${key} --replacing ${baseline.promoted_from}` : ''}`,
    )
  }
  // SPEC §7, §15: what changed is named in words, though it changes no exit code.
  const changes = runChanges(baseline, run, reference === 'run' ? { then: `in run ${baseline.promoted_from}`, now: `in run ${key}` } : undefined)
  for (const words of changes.words) warnings.push(words)
  if (run.slice !== undefined)
    warnings.push(
      `this run is a slice (tags ${run.slice.tags.join(', ')}: ${run.results.length} of the suite's ${run.slice.suite_cases} cases), compared over its own cases; a slice is never promoted`,
    )
  if (pairing.erroredEither.length > 0) warnings.push(`${pairing.erroredEither.length} case(s) errored in one run or both and are left out of the difference`)
  if (comparable) {
    if (difference === null) warnings.push('no case was judged in both runs: there is nothing to compare')
    else if (difference.ci95 === null)
      warnings.push(
        difference.method === 'cluster'
          ? 'every shared case is in one cluster: one cluster shows no spread between clusters, so the comparison does not gate'
          : 'only one case was judged in both runs: too few for an interval, so the comparison does not gate',
      )
    else if (tooFewToJudge(difference, tolerances.pass_rate)) {
      const flips = difference.discordant!
      warnings.push(
        `too few cases to judge a drop of this size: pass rate ${points(difference.mean)} points over ${difference.n} shared cases, but only ${flips.to_fail + flips.to_pass} flipped ` +
          `(${flips.to_fail} to fail, ${flips.to_pass} to pass); even had all of them flipped to fail, chance alone could do it more often than 2.5% of the time, so the pass rate does not gate`,
      )
    } else if (dropBeyond(difference.ci95, tolerances.pass_rate)) {
      reasons.push(
        `pass rate${onSamples ? ' (share of passing samples per case)' : ''} ${points(difference.mean)} points over ${difference.n} shared cases, 95% interval [${points(difference.ci95.low)}, ${points(difference.ci95.high)}]: ` +
          `the whole interval lies below ${belowWhat(tolerances.pass_rate, (t) => `−${(t * 100).toFixed(1)} points`)}`,
      )
    }
    const scoreTolerance = tolerances.mean_score
    if (scoreTolerance !== null && scoreDifference?.ci95 != null && dropBeyond(scoreDifference.ci95, scoreTolerance)) {
      reasons.push(
        `mean score ${score(scoreDifference.mean)} over ${scoreDifference.n} shared cases, 95% interval [${score(scoreDifference.ci95.low)}, ${score(scoreDifference.ci95.high)}]: ` +
          `the whole interval lies below ${belowWhat(scoreTolerance, (t) => `−${t.toFixed(3)}`)}`,
      )
    }
    for (const gate of gates) {
      if (gate.regressed) reasons.push(amountReason(gate))
      else if (gate.tolerance !== null && gate.unmeasured !== null) warnings.push(`the ${gate.gate.replaceAll('_', ' ')} gate did not gate: ${gate.unmeasured}`)
    }
  }
  return {
    status: comparable ? 'compared' : 'not-comparable',
    suite: run.suite,
    reference,
    baseline: { key: baseline.promoted_from, config_hash: baseline.config_hash, aggregates: baseline.aggregates, promoted_at: baseline.promoted_at },
    run: { key, config_hash: run.config_hash, aggregates: run.aggregates },
    shared: pairing.shared.length,
    added: pairing.added,
    removed: pairing.removed,
    excluded: pairing.erroredEither,
    difference,
    score_difference: scoreDifference,
    flipped: flippedOf(pairing.pairs),
    borderline_flips: borderlineFlips(pairing.pairs),
    ...(reportsSteps(pairing.pairs) ? { trajectories_changed: changedTrajectories(pairing.pairs) } : {}),
    tolerances,
    gates,
    flaky: flakyCases(pairing.pairs, run.rules.samples, caseHistory(recent), recent.length),
    regressed: reasons.length > 0,
    reasons,
    changes,
    warnings,
    ...tagsOf(run, baseline),
  }
}

function tagsOf(run: RunDocument, baseline: BaselineDocument): { tags?: TagSlice[] } {
  const tags = tagBreakdown(run.results, baseline.results)
  return tags.length === 0 ? {} : { tags }
}

/**
 * Run `run` against another run `against` of the same suite, as against a baseline: the same
 * pairing, intervals and gates, with `against` in the baseline's place (ADR 0230).
 */
export async function compareWithRun(store: Pick<Store, 'listRuns' | 'readRun'>, run: RunDocument, against: RunDocument): Promise<ComparedBaseline> {
  const againstKey = runKey(against)
  return compareRuns(baselineOf(against, againstKey, against.created_at), run, await recentRuns(store, run, againstKey), 'run')
}

/**
 * The run against its suite's committed baseline; undefined when the suite has none. A baseline that cannot be read is not thrown: it comes back as `unreadable`,
 * which fails the run as not judged (ADR 0010).
 */
export async function compareWithBaseline(store: Pick<Store, 'readBaseline' | 'listRuns' | 'readRun'>, run: RunDocument): Promise<BaselineComparison | undefined> {
  let baseline: BaselineDocument | undefined
  try {
    baseline = await store.readBaseline(run.tenant, run.suite)
  } catch (error) {
    const problem = isDiglineError(error)
      ? error.toData()
      : new UnreadableBaselineError(
          `the baseline of suite ${run.suite} could not be read (${error instanceof Error ? error.message : String(error)})`,
          'restore the baseline from git (`git checkout -- .digline`), or promote a run again',
        ).toData()
    return {
      status: 'unreadable',
      suite: run.suite,
      problem,
      regressed: false,
      reasons: [],
      warnings: [`the baseline of suite ${run.suite} cannot be read, so this run could not be judged against it: ${problem.message.split('\n')[0]}`],
    }
  }
  return baseline === undefined ? undefined : compareRuns(baseline, run, await recentRuns(store, run, baseline.promoted_from))
}

/** How many earlier runs the flaky-case count looks at, besides the baseline and the run. */
export const RECENT_RUNS = 5

/**
 * The suite's latest earlier runs under the run's rules and of its target (not replays, not the
 * baseline's run, not the run itself), newest first; a run that cannot be read is passed over, since it only sharpens a hint.
 */
async function recentRuns(store: Pick<Store, 'listRuns' | 'readRun'>, run: RunDocument, baselineKey: string): Promise<RunDocument[]> {
  const key = keyFor(run.created_at, run.config_hash)
  const listing = await store.listRuns(run.tenant, run.suite)
  const keys = listing.runs
    .flatMap((r) => (r.header !== undefined && r.key < key && r.key !== baselineKey && sameRulesAndTarget(r.header, run) && r.header.rejudged_from === undefined ? [r.key] : []))
    .slice(-RECENT_RUNS)
    .reverse()
  const out: RunDocument[] = []
  for (const k of keys) {
    try {
      out.push(await store.readRun(run.tenant, run.suite, k))
    } catch (error) {
      if (!isDiglineError(error)) throw error
    }
  }
  return out
}

function caseHistory(recent: readonly RunDocument[]): CaseHistory {
  const history = new Map<string, CaseResult[]>()
  for (const doc of recent) for (const result of doc.results) history.set(result.case_id, [...(history.get(result.case_id) ?? []), result])
  return history
}
