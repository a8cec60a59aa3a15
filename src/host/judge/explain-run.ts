// A run held against its suite's baseline and explained case by case, for a reader that cannot ask
// a follow-up question (digline mcp's compare_run): the comparison, each flipped case with its
// reason then and now, whether the target's declared config or its observed model moved, and the
// promotion a person could run when the run is promotable (it is proposed, never performed).
import type { BaselineDocument } from '../../document/baseline.js'
import type { CaseResult, RunDocument } from '../../document/schema.js'
import { exitCodeForStatus, type ExitCode } from '../../exit-codes.js'
import type { Store } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { canonicalJson } from '../../suite/hashing.js'
import type { BaselineComparison, ComparedBaseline } from './compare.js'
import { judgeRun } from './judge-run.js'
import { resolveRunKey } from '../launch/run-key.js'
import type { SuiteOutcome } from './suite-outcome.js'
import { describeAgreement, describeUncalibrated, type JudgeAgreement } from './judge-agreement.js'

export interface FlippedCase {
  case_id: string
  direction: 'pass_to_fail' | 'fail_to_pass'
  /** The scorer's reason in this run, and in the baseline (null when none was given). */
  reason: string | null
  baseline_reason: string | null
  score: number | null
  baseline_score: number | null
}

export interface RunExplanation {
  suite: string
  key: string
  status: SuiteOutcome['status']
  exit_code: ExitCode
  outcome: SuiteOutcome
  comparison: BaselineComparison | null
  flipped: FlippedCase[]
  target_config_moved: { baseline: unknown; run: unknown } | null
  observed_model_moved: { baseline: string | null; run: string | null } | null
  /** Each judge against the people's labels (ADR 0351), with its sentence; empty when the run has no judge. */
  judges: (JudgeAgreement & { words: string })[]
  /** With status `uncalibrated`: why the run was not judged and how many labels are missing; null otherwise. */
  not_judged: string | null
  /** The command a person would run to make this run the baseline, or why there is none. */
  promotion: { command: string; note: string } | { command: null; why: string }
}

function reasonOf(r: CaseResult): string | null {
  return r.error?.message ?? r.reason
}

function promotionOf(
  run: RunDocument,
  key: string,
  baseline: BaselineDocument | undefined,
  comparison: BaselineComparison | undefined,
  status: SuiteOutcome['status'],
): RunExplanation['promotion'] {
  if (run.rejudged_from !== undefined) return { command: null, why: `run ${key} is a replay of run ${run.rejudged_from}, and a replay is never promotable` }
  if (run.aggregates.errored > 0) return { command: null, why: `${run.aggregates.errored} case(s) of run ${key} errored, and a run with an errored case is never promotable` }
  if (comparison?.status === 'unreadable') return { command: null, why: 'the baseline cannot be read; restore it before promoting anything' }
  if (run.slice !== undefined) return { command: null, why: `run ${key} is a slice (tags ${run.slice.tags.join(', ')}) of suite ${run.suite}, and a slice is never promotable` }
  if (run.cached_answers !== undefined)
    return {
      command: null,
      why: `${run.cached_answers} answer(s) of run ${key} came from the response cache, and such a run is never promotable (measure it again with \`digline run --no-cache\`)`,
    }
  if (baseline?.promoted_from === key) return { command: null, why: `run ${key} is already the baseline of suite ${run.suite}` }
  const replacing = baseline === undefined ? '' : ` --replacing ${baseline.promoted_from}`
  if (status === 'regressed' || status === 'missed' || status === 'uncalibrated') {
    const what =
      status === 'regressed'
        ? `regressed against baseline ${baseline?.promoted_from ?? ''}`.trimEnd()
        : status === 'missed'
          ? 'missed its thresholds'
          : 'failed through a judge that is not calibrated, so it was not judged'
    return {
      command: null,
      why: `run ${key} ${what}, so it is not proposed as the baseline; a person who accepts that on purpose runs \`digline promote --suite ${run.suite} --run ${key}${replacing}\``,
    }
  }
  return {
    command: `digline promote --suite ${run.suite} --run ${key}${replacing}`,
    note: "for a person to run after review; promote also refuses a run whose config_hash is not the suite's current one",
  }
}

/** Each flipped case of a comparison with its score and reason in both runs. */
export function flippedCases(comparison: ComparedBaseline, before: readonly CaseResult[], after: readonly CaseResult[]): FlippedCase[] {
  const then = new Map(before.map((r) => [r.case_id, r]))
  const now = new Map(after.map((r) => [r.case_id, r]))
  const flipped: FlippedCase[] = []
  for (const direction of ['pass_to_fail', 'fail_to_pass'] as const) {
    for (const id of comparison.flipped[direction]) {
      const b = then.get(id)
      const r = now.get(id)
      if (b === undefined || r === undefined) continue
      flipped.push({ case_id: id, direction, reason: reasonOf(r), baseline_reason: reasonOf(b), score: r.score, baseline_score: b.score })
    }
  }
  return flipped
}

export async function explainRun(store: Store, tenant: string, suite: string, runArg: string): Promise<RunExplanation> {
  assertSafeSegment('suite', suite)
  if (runArg !== 'latest') assertSafeSegment('key', runArg)
  const key = await resolveRunKey(store, tenant, suite, runArg)
  const run = await store.readRun(tenant, suite, key)
  const outcome = await judgeRun(store, run, { tenant, suite, key, location: `run ${key} of suite ${suite}` })
  const { comparison } = outcome
  const baseline = comparison === undefined || comparison.status === 'unreadable' ? undefined : await store.readBaseline(tenant, suite)
  const flipped = comparison === undefined || comparison.status === 'unreadable' ? [] : flippedCases(comparison, baseline?.results ?? [], run.results)
  return {
    suite,
    key,
    status: outcome.status,
    exit_code: exitCodeForStatus(outcome.status),
    outcome,
    comparison: comparison ?? null,
    flipped,
    target_config_moved:
      baseline !== undefined && canonicalJson(baseline.target_config) !== canonicalJson(run.target_config) ? { baseline: baseline.target_config, run: run.target_config } : null,
    observed_model_moved:
      baseline !== undefined && baseline.observed.target_model !== run.observed.target_model ? { baseline: baseline.observed.target_model, run: run.observed.target_model } : null,
    judges: (outcome.agreement ?? []).map((a) => ({ ...a, words: describeAgreement(a) })),
    not_judged: outcome.status === 'uncalibrated' ? describeUncalibrated(outcome) : null,
    promotion: promotionOf(run, key, baseline, comparison, outcome.status),
  }
}
