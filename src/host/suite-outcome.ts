// What the worker tells the reporter about a finished suite, and how outcomes become an exit code.
import type { Aggregates, CaseResult } from '../document/schema.js'
import type { ThresholdJudgement } from '../driver/index.js'
import type { ExitCode } from '../errors.js'
import type { Measured } from './measure-run.js'

export type SuiteStatus = 'held' | 'missed' | 'errored'

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
}

export function outcomeOf(measured: Measured): SuiteOutcome {
  const { document, thresholds } = measured
  const status: SuiteStatus = document.aggregates.errored > 0 ? 'errored' : thresholds.met ? 'held' : 'missed'
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

/** SPEC §5: 64 for a refusal, else 2 if anything could not be judged, else 1 if anything missed, else 0. */
export function exitCodeForLaunch(summary: LaunchSummary): ExitCode {
  if (summary.refusals > 0) return 64
  if (summary.failures > 0 || summary.outcomes.some((o) => o.status === 'errored')) return 2
  if (summary.failedTests > 0 || summary.outcomes.some((o) => o.status === 'missed')) return 1
  return 0
}
