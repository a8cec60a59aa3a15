// What the worker tells the reporter about a finished suite, and how outcomes become an exit code.
import type { Aggregates, CaseResult } from '../document/schema.js'
import type { ThresholdJudgement } from '../driver/index.js'
import type { ExitCode } from '../errors.js'
import type { Measured } from './measure-run.js'
import type { BaselineComparison } from './compare.js'

/**
 * held: thresholds met, no regression. missed: a threshold missed. regressed: a drop against the
 * baseline beyond the tolerances. errored: a case errored. baseline-unreadable: the committed
 * baseline cannot be read, so the run could not be judged against it (ADR 0010).
 */
export type SuiteStatus = 'held' | 'missed' | 'regressed' | 'errored' | 'baseline-unreadable'

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
}

/** The one order of verdicts: not judged, then regressed, then a missed threshold, then held. */
export function statusOf(aggregates: Aggregates, thresholds: ThresholdJudgement, comparison?: BaselineComparison): SuiteStatus {
  if (aggregates.errored > 0) return 'errored'
  if (comparison?.status === 'unreadable') return 'baseline-unreadable'
  if (comparison?.regressed === true) return 'regressed'
  return thresholds.met ? 'held' : 'missed'
}

export function outcomeOf(measured: Measured, comparison?: BaselineComparison): SuiteOutcome {
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
    notPassed: document.results
      .filter((r) => r.verdict !== 'pass')
      .map((r) => ({ case_id: r.case_id, verdict: r.verdict, score: r.score, reason: r.error?.message ?? r.reason })),
    ...(comparison === undefined ? {} : { comparison }),
    ...(document.rejudged_from === undefined ? {} : { replayOf: document.rejudged_from }),
  }
}

export interface LaunchSummary {
  outcomes: readonly SuiteOutcome[]
  /** Refusals raised anywhere in the launch (an invalid suite, bad options). */
  refusals: number
  /** digline failures and errors outside any judged suite (a write that failed, a crash). */
  failures: number
  /** Ordinary Vitest tests that failed beside the suites. */
  failedTests: number
}

/** The exit code of one suite's verdict alone (SPEC §5); `digline compare` exits with it. */
export function exitCodeForStatus(status: SuiteStatus): ExitCode {
  if (status === 'errored' || status === 'baseline-unreadable') return 2
  if (status === 'regressed' || status === 'missed') return 1
  return 0
}

/** SPEC §5: 64 for a refusal, else 2 if anything could not be judged, else 1 if anything missed or regressed, else 0. */
export function exitCodeForLaunch(summary: LaunchSummary): ExitCode {
  if (summary.refusals > 0) return 64
  if (summary.failures > 0 || summary.outcomes.some((o) => exitCodeForStatus(o.status) === 2)) return 2
  if (summary.failedTests > 0 || summary.outcomes.some((o) => exitCodeForStatus(o.status) === 1)) return 1
  return 0
}
