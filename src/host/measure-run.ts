// Running a prepared suite: execute with the per-case hook, build the run document, write it.
import { execute, aggregate, judgeThresholds, type Execution, type ThresholdJudgement } from '../driver/index.js'
import type { OnCase } from '../driver/progress.js'
import { SCHEMA_VERSION, type RunDocument } from '../document/schema.js'
import { judgeConfigOf } from '../suite/hashing.js'
import type { ResultStore, StoredRun } from '../store/result-store.js'
import { DIGLINE_VERSION } from '../version.js'
import type { Prepared } from './prepare-run.js'

export interface MeasureOptions {
  store: ResultStore
  onCase?: OnCase
  signal?: AbortSignal
}

export interface Measured {
  document: RunDocument
  /** Where the document was written; undefined for a filtered (partial) run, which is not written. */
  stored: StoredRun | undefined
  thresholds: ThresholdJudgement
}

export async function measureRun(prepared: Prepared, options: MeasureOptions): Promise<Measured> {
  const execution = await execute({
    suite: prepared.suite,
    only: prepared.only,
    onCase: options.onCase,
    signal: options.signal,
  })
  const document = buildRunDocument(prepared, execution)
  const stored = prepared.only === undefined ? await options.store.writeRun(document) : undefined
  return { document, stored, thresholds: judgeThresholds(document.aggregates, document.rules) }
}

export function buildRunDocument(prepared: Prepared, execution: Execution): RunDocument {
  const { suite } = prepared
  return {
    schema_version: SCHEMA_VERSION,
    digline_version: DIGLINE_VERSION,
    tenant: prepared.tenant,
    environment: prepared.environment,
    suite: suite.name,
    created_at: prepared.createdAt,
    config_hash: prepared.configHash,
    ...(prepared.gitCommit === undefined ? {} : { git_commit: prepared.gitCommit }),
    record_responses: suite.recordResponses,
    target_config: suite.targetConfig,
    judge_config: judgeConfigOf(suite.scorers),
    artifacts: prepared.artifacts,
    metadata: suite.metadata,
    rules: suite.rules,
    observed: execution.observed,
    aggregates: aggregate(execution.results, suite.rules),
    results: execution.results,
  }
}
