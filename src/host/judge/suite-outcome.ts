// What the worker tells the reporter about a finished suite (src/exit-codes.ts turns it into an exit code).
import type { Aggregates, CaseResult, RunDocument } from '../../document/schema.js'
import { borderlineOf, type BorderlineCount } from '../../document/borderline-cases.js'
import type { ThresholdJudgement } from '../../driver/index.js'
import type { VerdictStatus } from '../../exit-codes.js'
import type { StoredRun } from '../../store/contract.js'
import type { BaselineComparison } from './compare.js'
import type { JudgeAgreement } from './judge-agreement.js'

/** A suite's verdict; src/exit-codes.ts says what each means and which exit code it earns. */
export type SuiteStatus = VerdictStatus
export { exitCodeForStatus } from '../../exit-codes.js'

export interface CaseLine {
  case_id: string
  verdict: CaseResult['verdict']
  score: number | null
  reason: string | null
}

export interface SuiteOutcome {
  suite: string
  tenant: string
  key: string
  status: SuiteStatus
  aggregates: Aggregates
  misses: ThresholdJudgement['misses']
  /** Where the document was written, or undefined for a filtered run (not written). */
  location: string | undefined
  /** The failed and errored cases, in suite order. */
  notPassed: CaseLine[]
  /** The run against the suite's baseline; absent when the suite has none. */
  comparison?: BaselineComparison
  /** For a replay: the key of the run it re-judged (a replay is never promotable). */
  replayOf?: string
  /** How many answers came from the response cache (such a run is never promotable); absent when none. */
  cachedAnswers?: number
  /** Cases with a score within the suite's borderline band of its pass_at (ADR 0262); absent when none. */
  borderline?: BorderlineCount
  /** A slice by tag (digline run --tag T): its tags and the suite's case count (a slice is never promotable). */
  slice?: { tags: string[]; suite_cases: number }
  /** Each judge of the run against the people's labels of it (ADR 0351); absent when the run has no judge. */
  agreement?: JudgeAgreement[]
  /** With status `uncalibrated`: the judges the regression or missed threshold rests on, which are below the suite's calibration. */
  uncalibrated?: string[]
  /** A sharded launch: its shard, and for a shard that is not the last, the shards the still open run waits for. */
  shard?: { shard: string; open: boolean; waiting: { shard: string; state: string; journaled: number; share: number }[] }
}

/** The one order of verdicts: not judged, then regressed, then a missed threshold, then held. */
export function statusOf(aggregates: Aggregates, thresholds: ThresholdJudgement, comparison?: BaselineComparison): SuiteStatus {
  if (aggregates.errored > 0) return 'errored'
  if (comparison?.status === 'unreadable') return 'baseline-unreadable'
  if (comparison?.regressed === true) return 'regressed'
  return thresholds.met ? 'held' : 'missed'
}

/** A run document with its thresholds judged, and where it was written (undefined for a filtered run). */
export interface JudgedRun {
  document: RunDocument
  stored: StoredRun | undefined
  thresholds: ThresholdJudgement
}

/** The outcome's shape from its parts; judge-run.ts is its one caller (a test builds outcomes with it too). */
export function outcomeOf(measured: JudgedRun, comparison?: BaselineComparison): SuiteOutcome {
  const { document, thresholds } = measured
  const status = statusOf(document.aggregates, thresholds, comparison)
  return {
    suite: document.suite,
    tenant: document.tenant,
    key: measured.stored?.key ?? '(not written)',
    status,
    aggregates: document.aggregates,
    misses: thresholds.misses,
    location: measured.stored?.location,
    notPassed: document.results.filter((r) => r.verdict !== 'pass').map((r) => ({ case_id: r.case_id, verdict: r.verdict, score: r.score, reason: r.error?.message ?? r.reason })),
    ...(comparison === undefined ? {} : { comparison }),
    ...(document.rejudged_from === undefined ? {} : { replayOf: document.rejudged_from }),
    ...(document.cached_answers === undefined ? {} : { cachedAnswers: document.cached_answers }),
    ...borderlinePart(document.results),
    ...(document.slice === undefined ? {} : { slice: document.slice }),
  }
}

function borderlinePart(results: readonly CaseResult[]): { borderline?: BorderlineCount } {
  const borderline = borderlineOf(results)
  return borderline === undefined ? {} : { borderline }
}
