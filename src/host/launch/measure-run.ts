// Running a prepared suite: execute with the per-case hook, build the run document, write it.
import { execute, aggregate, conversationStep, type Execution, type ExecuteOptions } from '../../driver/index.js'
import type { CaseProgress, OnCase } from '../../document/case-progress.js'
import { SCHEMA_VERSION, type RunDocument, type RunHeader } from '../../document/schema.js'
import { judgeConfigOf } from '../../suite/hashing.js'
import { variantHeader } from '../../suite/variants.js'
import { pricingFor, withTargetCosts } from '../../driver/cost.js'
import type { Store, StoredRun } from '../../store/contract.js'
import { DIGLINE_VERSION } from '../../version.js'
import type { Prepared } from './prepare-run.js'
import { createdAtNow } from '../../suite/keys.js'
import { journalHeaderFor } from './resume.js'
import { assertDocumentHeaderWithinBound, OBSERVED_RESERVE_BYTES } from '../../store/header-bounds.js'

export interface MeasureOptions {
  store: Store
  /** Called after each case's journal record is durable: the user's hooks, then the front end's. */
  onCase?: readonly OnCase[]
  signal?: AbortSignal
}

export interface Measured {
  document: RunDocument
  /** Where the document was written; undefined for a filtered (partial) run, which is not written. */
  stored: StoredRun | undefined
}

export async function measureRun(prepared: Prepared, options: MeasureOptions): Promise<Measured> {
  const { store } = options
  const hooks = options.onCase ?? []
  // Before any call: a header the readers could not read back is refused (the journal's, by openJournal).
  assertDocumentHeaderWithinBound(buildRunHeader(prepared, { target_model: null, judge_models: {} }), OBSERVED_RESERVE_BYTES)
  // A filtered run writes no document, so it keeps no journal either: nothing could finish it.
  const journal = prepared.only === undefined ? await store.openJournal(journalHeaderFor(prepared, createdAtNow()), prepared.leg) : undefined
  try {
    const execution = await execute({
      ...spendingOptions(prepared),
      only: prepared.only,
      signal: options.signal,
      ...(journal === undefined ? {} : { keep: (progress: CaseProgress, alone: boolean) => journal.append(progress, alone) }),
      onCase: async (progress) => {
        // A hook that returns nothing is not awaited: a case's turn of the queue costs no extra tick per hook.
        for (const hook of hooks) {
          const returned = hook(progress)
          if (returned !== undefined) await returned
        }
      },
    })
    const document = buildRunDocument(prepared, execution)
    const stored = prepared.only === undefined ? await store.writeRun(document) : undefined
    await journal?.complete()
    return { document, stored }
  } finally {
    await journal?.close()
  }
}

/**
 * What decides the calls a prepared launch makes, as its bill counted them: the cases already judged,
 * the response cache's answers and the budget. Every launch that asks the target (a whole run, a
 * shard) executes with these, so the bill and the budget are what it spends.
 */
export function spendingOptions(prepared: Prepared): Pick<ExecuteOptions, 'suite' | 'done' | 'observedSeed' | 'cached' | 'onAnswer' | 'budget' | 'step' | 'tools'> {
  // A conversation is asked turn by turn (launch-suite.ts opens no cache for it).
  const conversation = prepared.suite.conversation !== undefined
  return {
    suite: prepared.suite,
    done: prepared.done,
    observedSeed: prepared.observedSeed,
    ...(conversation ? { step: conversationStep } : {}),
    ...(prepared.cache === undefined ? {} : { cached: prepared.cache.hits, onAnswer: prepared.cache.keep }),
    ...(prepared.budget === undefined ? {} : { budget: prepared.budget }),
    ...(prepared.toolReplay === undefined ? {} : { tools: prepared.toolReplay.forSample }),
  }
}

export function buildRunDocument(prepared: Prepared, execution: Execution): RunDocument {
  const { suite } = prepared
  const judgeConfig = judgeConfigOf(suite.scorers, suite.conversation?.user)
  const pricing = suite.prices === undefined ? undefined : pricingFor(suite.prices, execution.observed, suite.targetConfig, judgeConfig)
  const cachedAnswers = execution.results.reduce((n, r) => n + r.samples.filter((s) => s.cached === true).length, 0)
  // Only a suite that gates on cost records it per case, so no other suite's document changes.
  const results = pricing !== undefined && suite.rules.tolerances.cost_per_case !== undefined ? withTargetCosts(execution.results, pricing) : execution.results
  return {
    ...buildRunHeader(prepared, execution.observed),
    ...(cachedAnswers === 0 ? {} : { cached_answers: cachedAnswers }),
    aggregates: aggregate(results, suite.rules, pricing),
    results,
  }
}

export function buildRunHeader(prepared: Prepared, observed: Execution['observed']): RunHeader {
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
    judge_config: judgeConfigOf(suite.scorers, suite.conversation?.user),
    artifacts: prepared.artifacts,
    metadata: suite.metadata,
    ...(Object.keys(suite.datasets).length === 0 ? {} : { datasets: { ...suite.datasets } }),
    ...(suite.slice === undefined ? {} : { slice: { tags: [...suite.slice.tags], suite_cases: suite.slice.suite_cases } }),
    ...(suite.variant === undefined ? {} : { variant: variantHeader(suite.variant) }),
    rules: suite.rules,
    observed,
  }
}
