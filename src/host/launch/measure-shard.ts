// Running one shard of a run: its share of the cases, journaled in its own leg under the run's key;
// then, when the shards' journals together hold every case, the run is filed (by whichever shard
// saw that first), else the shard reports which shards the run still waits for.
import { aggregate, execute } from '../../driver/index.js'
import type { CaseResult } from '../../document/schema.js'
import type { Journal } from '../../store/journal.js'
import type { Store } from '../../store/contract.js'
import { LiveRunError } from '../../store/errors.js'
import { NoPendingJournalError } from '../errors.js'
import { createdAtNow } from '../../suite/keys.js'
import { assertDocumentHeaderWithinBound, OBSERVED_RESERVE_BYTES } from '../../store/header-bounds.js'
import { describeWriter } from '../../store/live-writer.js'
import type { Pending } from '../../store/journal.js'
import { buildRunHeader, spendingOptions, type Measured, type MeasureOptions } from './measure-run.js'
import { raiseRefusal } from '../project/pending-journals.js'
import type { Prepared } from './prepare-run.js'
import { journalHeaderFor } from './resume.js'
import { assertNotRemoved } from '../lifecycle/removed-runs.js'
import { shardLabel, shardOfLeg, type Shard } from './shard.js'
import { documentFromShards, fileOnce, filedDocument, resultsInSuiteOrder, shardsOf, type ShardProgress } from './sharded-run.js'
import { statusOf, type SuiteOutcome } from '../judge/suite-outcome.js'

export type ShardSettlement =
  | { kind: 'filed'; measured: Measured; here: boolean }
  /** The run waits for other shards: this shard's own results, and the shards not done. */
  | { kind: 'open'; results: CaseResult[]; waiting: ShardProgress[] }

export async function measureShard(prepared: Prepared, options: MeasureOptions): Promise<ShardSettlement> {
  const { store } = options
  const hooks = options.onCase ?? []
  assertDocumentHeaderWithinBound(buildRunHeader(prepared, { target_model: null, judge_models: {} }), OBSERVED_RESERVE_BYTES)
  const journal = await store.openJournal(journalHeaderFor(prepared, createdAtNow()), prepared.leg)
  try {
    const execution = await execute({
      ...spendingOptions(prepared),
      only: prepared.mine,
      signal: options.signal,
      keep: (progress, alone) => journal.append(progress, alone),
      onCase: async (progress) => {
        for (const hook of hooks) await hook(progress)
      },
    })
    return await settle(prepared, store, journal, execution.results)
  } finally {
    await journal.close()
  }
}

/**
 * Every shard's last record is durable before it reads the journal, so of shards finishing together
 * at least the last to read sees every case; two that both see it file identical bytes (fileOnce).
 */
async function settle(prepared: Prepared, store: Store, journal: Journal, mine: CaseResult[]): Promise<ShardSettlement> {
  const { tenant, key } = prepared
  const suite = prepared.suite.name
  const pending = (await store.pending(tenant, suite)).find((p) => p.key === key)
  if (pending?.refusal !== undefined) raiseRefusal(pending.refusal)
  if (pending !== undefined && !pending.finished) {
    const { results, missing } = resultsInSuiteOrder(prepared.suite, pending.done)
    if (missing.length === 0) {
      const document = documentFromShards(prepared, results, pending.observed)
      const filing = await fileOnce(store, document)
      if (filing.here) await journal.complete()
      return { kind: 'filed', measured: { document, stored: filing.stored }, here: filing.here }
    }
  }
  // Another shard filed the run (and may be removing the legs meanwhile), or the run is still open.
  const document = await filedDocument(store, tenant, suite, key)
  if (document !== undefined) {
    const stored = { tenant, suite, key, location: `run ${key} of suite ${suite} (filed by another shard)` }
    return { kind: 'filed', measured: { document, stored }, here: false }
  }
  const waiting = (pending === undefined ? undefined : shardsOf(pending))?.filter((s) => s.state !== 'done') ?? []
  return { kind: 'open', results: mine, waiting }
}

/** What a shard that is not the last reports: its own cases, and that the run is still open. */
export function openShardOutcome(prepared: Prepared, results: CaseResult[], waiting: ShardProgress[]): SuiteOutcome {
  const aggregates = aggregate(results, prepared.suite.rules)
  return {
    suite: prepared.suite.name,
    tenant: prepared.tenant,
    key: prepared.key,
    status: statusOf(aggregates, { met: true, misses: [] }),
    aggregates,
    misses: [],
    location: undefined,
    notPassed: results.filter((r) => r.verdict !== 'pass').map((r) => ({ case_id: r.case_id, verdict: r.verdict, score: r.score, reason: r.error?.message ?? r.reason })),
    shard: { shard: shardLabel(prepared.shard!), open: true, waiting },
  }
}

/** The pending journal a shard resumes: refused as a whole resume is, but only this shard's own live legs block it. */
export async function findShardPending(store: Store, tenant: string, suite: string, key: string, shard: Shard): Promise<Pending> {
  await assertNotRemoved(store, tenant, suite, key, 'resume')
  const pending = (await store.pending(tenant, suite)).find((p) => p.key === key)
  if (pending === undefined || pending.finished) {
    throw new NoPendingJournalError(
      pending === undefined ? `suite ${suite} has no pending journal under key ${key}` : `run ${key} of suite ${suite} was already written; there is nothing to resume`,
      'Run `digline pending` to see what is pending, or start a fresh run with `digline run`.',
    )
  }
  if (pending.refusal !== undefined) raiseRefusal(pending.refusal)
  const live = pending.leases.find((l) => l.live && shardOfLeg(l.leg, shard.count) === shard.index)
  if (live !== undefined) {
    throw new LiveRunError(
      `shard ${shardLabel(shard)} of run ${key} (suite ${suite}) is still being written by ${describeWriter(live)}, whose lease holds`,
      `Let process ${live.lease.pid} finish the shard (\`digline pending\` shows the shards), or stop it with \`kill ${live.lease.pid}\`; then run \`digline run --resume ${key} --shard ${shardLabel(shard)}\`.`,
    )
  }
  return pending
}
