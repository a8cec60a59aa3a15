// The one judgement (ADR 0110): a run document becomes its suite's outcome here and nowhere else.
// Its thresholds, and for a filed run the comparison with the suite's baseline (the paired
// difference, the amount gates, the flaky cases of recent runs), ordered into one verdict. The
// worker after a run, a shard that files the run, a replay, a merge, `digline compare`, `digline
// show`, the report and the MCP tools all ask this one function, so they cannot disagree.
import { baselineOf, type BaselineDocument } from '../../document/baseline.js'
import type { RunDocument } from '../../document/schema.js'
import { aggregate } from '../../driver/aggregate.js'
import { judgeThresholds } from '../../driver/thresholds.js'
import type { Store, StoredRun } from '../../store/contract.js'
import { keyFor } from '../../suite/keys.js'
import { compareRuns, compareWithBaseline, compareWithRun, type BaselineComparison } from './compare.js'
import { agreementOf, withoutScorers, type JudgeAgreement, type JudgeLabel } from './judge-agreement.js'
import { outcomeOf, statusOf, type SuiteOutcome } from './suite-outcome.js'
import { labelledRuns, labelsFrom, newestPerReviewer } from './review-labels.js'
import { answerDigestOf } from '../../document/answer-digest.js'
import { judgeNames } from '../../suite/judge-scorers.js'

/** What the judgement reads: the suite's baseline, its recent runs for the flaky cases, and the people's labels of its judges. */
export type JudgingStore = Pick<Store, 'readBaseline' | 'listRuns' | 'readRun' | 'listReviews'>

/**
 * The outcome of run `document`. `filed` says where it was written; a filtered run (undefined) is
 * not the suite's measurement, so it is judged by its thresholds alone, never against the baseline.
 * With `against` (another filed run of the suite), that run takes the baseline's place (ADR 0230).
 * The people's labels of the run's judges are read from the suite's review records (ADR 0351);
 * `labels`, when given, stands in for them.
 */
export async function judgeRun(
  store: JudgingStore,
  document: RunDocument,
  filed: StoredRun | undefined,
  against?: RunDocument,
  labels?: readonly JudgeLabel[],
): Promise<SuiteOutcome> {
  const thresholds = judgeThresholds(document.aggregates, document.rules)
  const comparison = filed === undefined ? undefined : against !== undefined ? await compareWithRun(store, document, against) : await compareWithBaseline(store, document)
  const outcome = outcomeOf({ document, stored: filed, thresholds }, comparison)
  if (judgeNames(document.judge_config).length === 0) return outcome
  const agreement = agreementOf(document, labels ?? (await reviewLabels(store, document)))
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

/** The labels of the run's judges in the suite's review records (ADR 0351). */
async function reviewLabels(store: JudgingStore, document: RunDocument): Promise<JudgeLabel[]> {
  const records = newestPerReviewer(await store.listReviews(document.tenant, document.suite))
  if (records.length === 0) return []
  const runs = await labelledRuns((key) => store.readRun(document.tenant, document.suite, key), document, records)
  return labelsFrom(document, records, runs, answerDigestOf)
}
