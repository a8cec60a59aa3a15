// The one judgement (ADR 0110): a run document becomes its suite's outcome here and nowhere else.
// Its thresholds, and for a filed run the comparison with the suite's baseline (the paired
// difference, the amount gates, the flaky cases of recent runs), ordered into one verdict. The
// worker after a run, a shard that files the run, a replay, a merge, `digline compare`, `digline
// show`, the report and the MCP tools all ask this one function, so they cannot disagree.
import { baselineOf, type BaselineDocument } from '../../document/baseline.js'
import type { RunDocument } from '../../document/schema.js'
import { aggregate, judgeThresholds } from '../../driver/index.js'
import type { Store, StoredRun } from '../../store/contract.js'
import { keyFor } from '../../suite/keys.js'
import { compareRuns, compareWithBaseline, compareWithRun, type BaselineComparison } from './compare.js'
import { agreementOf, withoutScorers, type JudgeAgreement, type JudgeLabel } from './judge-agreement.js'
import { outcomeOf, statusOf, type SuiteOutcome } from './suite-outcome.js'

/** What the judgement reads: the suite's baseline, and its recent runs for the flaky cases. */
export type JudgingStore = Pick<Store, 'readBaseline' | 'listRuns' | 'readRun'>

/**
 * The outcome of run `document`. `filed` says where it was written; a filtered run (undefined) is
 * not the suite's measurement, so it is judged by its thresholds alone, never against the baseline.
 * With `against` (another filed run of the suite), that run takes the baseline's place (ADR 0230).
 * `labels` are the people's labels of the suite's judges (ADR 0351).
 */
export async function judgeRun(
  store: JudgingStore,
  document: RunDocument,
  filed: StoredRun | undefined,
  against?: RunDocument,
  labels: readonly JudgeLabel[] = [],
): Promise<SuiteOutcome> {
  const thresholds = judgeThresholds(document.aggregates, document.rules)
  const comparison = filed === undefined ? undefined : against !== undefined ? await compareWithRun(store, document, against) : await compareWithBaseline(store, document)
  const outcome = outcomeOf({ document, stored: filed, thresholds }, comparison)
  const agreement = agreementOf(document, labels)
  if (agreement.length === 0) return outcome
  const judged = { ...outcome, agreement }
  const uncalibrated = agreement.filter((a) => a.calibrated === false)
  if (uncalibrated.length === 0 || (outcome.status !== 'regressed' && outcome.status !== 'missed')) return judged
  const reference =
    comparison === undefined || comparison.status === 'unreadable'
      ? undefined
      : against !== undefined
        ? baselineOf(against, keyFor(against.created_at, against.config_hash), against.created_at)
        : await store.readBaseline(document.tenant, document.suite)
  const standing = statusWithout(document, uncalibrated, comparison, reference)
  if (standing === 'regressed' || standing === 'missed') return judged
  return { ...judged, status: 'uncalibrated', uncalibrated: uncalibrated.map((a) => a.judge) }
}

/** The verdict the run would earn with the uncalibrated judges' verdicts left out (ADR 0352). */
function statusWithout(
  document: RunDocument,
  judges: readonly JudgeAgreement[],
  comparison: BaselineComparison | undefined,
  reference: BaselineDocument | undefined,
): SuiteOutcome['status'] {
  const names = new Set(judges.map((j) => j.judge))
  const results = withoutScorers(document.results, names, document.rules)
  const run = { ...document, results, aggregates: aggregate(results, document.rules) }
  const thresholds = judgeThresholds(run.aggregates, run.rules)
  const without =
    reference === undefined || comparison === undefined || comparison.status === 'unreadable'
      ? undefined
      : compareRuns({ ...reference, results: withoutScorers(reference.results, names, reference.rules) }, run, [], comparison.reference)
  return statusOf(run.aggregates, thresholds, without)
}
