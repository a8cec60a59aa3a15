// The one judgement (ADR 0110): a run document becomes its suite's outcome here and nowhere else.
// Its thresholds, and for a filed run the comparison with the suite's baseline (the paired
// difference, the amount gates, the flaky cases of recent runs), ordered into one verdict. The
// worker after a run, a shard that files the run, a replay, a merge, `digline compare`, `digline
// show`, the report and the MCP tools all ask this one function, so they cannot disagree.
import type { RunDocument } from '../../document/schema.js'
import { judgeThresholds } from '../../driver/index.js'
import type { Store, StoredRun } from '../../store/contract.js'
import { compareWithBaseline, compareWithRun } from './compare.js'
import { outcomeOf, type SuiteOutcome } from './suite-outcome.js'

/** What the judgement reads: the suite's baseline, and its recent runs for the flaky cases. */
export type JudgingStore = Pick<Store, 'readBaseline' | 'listRuns' | 'readRun'>

/**
 * The outcome of run `document`. `filed` says where it was written; a filtered run (undefined) is
 * not the suite's measurement, so it is judged by its thresholds alone, never against the baseline.
 * With `against` (another filed run of the suite), that run takes the baseline's place (ADR 0230).
 */
export async function judgeRun(store: JudgingStore, document: RunDocument, filed: StoredRun | undefined, against?: RunDocument): Promise<SuiteOutcome> {
  const thresholds = judgeThresholds(document.aggregates, document.rules)
  const comparison = filed === undefined ? undefined : against !== undefined ? await compareWithRun(store, document, against) : await compareWithBaseline(store, document)
  return outcomeOf({ document, stored: filed, thresholds }, comparison)
}
