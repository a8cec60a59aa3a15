// `digline merge DIR…`: the shards of a run, each journaled in its own file store (a CI artifact),
// filed as the one run an unsharded launch would have written. Every check comes before anything is
// filed: each shard exactly once and whole, the shards' headers alike, no case in two shards
// (docs/adr/0052-merge-checks.md).
import type { CaseResult, Observed } from '../../document/schema.js'
import { CaseInTwoShardsError, ShardMissingError, ShardsDisagreeError, ShardTwiceError } from './errors.js'
import type { Store } from '../../store/contract.js'
import { RESUME_CHECKED_FIELDS, type Pending, type PendingCases } from '../../store/journal.js'
import { describeStore, openStore } from '../../store/open-store.js'
import { canonicalJson } from '../../suite/hashing.js'
import type { ResolvedSuite } from '../../suite/types.js'
import type { Measured } from '../launch/measure-run.js'
import { raiseRefusal } from '../project/pending-journals.js'
import { prepareRun, type RunContext } from '../launch/prepare-run.js'
import { assertResumable, journalHeaderFor } from '../launch/resume.js'
import { assertNotRemoved } from './removed-runs.js'
import { readShardLabel, shardOfLeg, sharesOf } from '../launch/shard.js'
import { documentFromShards, fileOnce, resultsInSuiteOrder } from '../launch/sharded-run.js'

/** One shard's store directory and the journal of the run it holds: read for its cases' ids (the CLI's checks) or whole (the worker's filing). */
export interface ShardJournal<P extends PendingCases | Pending = Pending> {
  store: string
  pending: P
  /** The shard count the run was started with. */
  count: number
  /** The shards whose legs this store holds. */
  shards: number[]
}

export interface MergedRun {
  suite: string
  key: string
  count: number
  /** The store directories, in shard order. */
  stores: string[]
}

/** The header fields every shard of one run shares; started_at, the lease and the shard are each leg's own. */
const SHARED_FIELDS = ['created_at', 'config_hash', ...RESUME_CHECKED_FIELDS.filter((f) => f !== 'config_hash')] as const

/** The pending sharded journals of a tenant in one shard's store directory, each read by `read`. */
async function shardJournalsIn<P extends PendingCases | Pending>(
  storeDir: string,
  tenant: string,
  read: (store: Store, tenant: string, suite: string) => Promise<P[]>,
): Promise<ShardJournal<P>[]> {
  const store = openStore({ store: storeDir })
  const out: ShardJournal<P>[] = []
  for (const suite of await store.listSuites(tenant)) {
    for (const pending of await read(store, tenant, suite)) {
      if (pending.finished) continue
      if (pending.refusal !== undefined) raiseRefusal(pending.refusal)
      const count = readShardLabel(pending.header?.shard)?.count
      if (count === undefined) continue
      out.push({ store: storeDir, pending, count, shards: [...new Set(pending.legs.map((leg) => shardOfLeg(leg, count)))].sort((a, b) => a - b) })
    }
  }
  return out
}

const casesOf = (store: Store, tenant: string, suite: string) => store.pendingCases(tenant, suite)
const wholeOf = (store: Store, tenant: string, suite: string) => store.pending(tenant, suite)

/** The ids a journal holds a case record of. */
function journaledIds(pending: PendingCases | Pending): { has(id: string): boolean; keys(): IterableIterator<string>; readonly size: number } {
  return 'caseIds' in pending ? pending.caseIds : pending.done
}

/**
 * Every check of a merge, across the given stores, before anything is filed; the runs to file. The
 * journals are read for their cases' ids alone: the worker reads them whole again, and refuses a
 * record out of shape before it files that suite (ADR 0562).
 */
export async function planMerge(tenant: string, storeDirs: readonly string[], target: Store): Promise<MergedRun[]> {
  const bySuite = new Map<string, ShardJournal<PendingCases>[]>()
  for (const dir of storeDirs) {
    const found = await shardJournalsIn(dir, tenant, casesOf)
    if (found.length === 0) {
      throw new ShardMissingError(
        `digline merge was refused: ${describeStore(dir)} holds no pending journal of a sharded run of tenant ${tenant}; nothing was filed`,
        "Give `digline merge` the store directories the shards wrote (each shard's .digline, as its CI artifact holds it).",
        [dir],
      )
    }
    for (const journal of found) bySuite.set(journal.pending.suite, [...(bySuite.get(journal.pending.suite) ?? []), journal])
  }
  const runs: MergedRun[] = []
  for (const [suite, journals] of [...bySuite].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const run = checkShards(suite, journals)
    await assertNotRemoved(target, tenant, suite, run.key, 'merge')
    runs.push(run)
  }
  return runs
}

/** The CLI's checks: the shards are of one run, each held once and journaled whole, and no case is in two of them. */
function checkShards(suite: string, journals: ShardJournal<PendingCases | Pending>[]): MergedRun {
  const { run, holderOf } = checkShardsHeld(suite, journals)
  const ids = Object.keys(journals[0]!.pending.declared?.digests ?? {})
  const heldBy = holderOf.map((holder) => journaledIds(holder.pending))
  // Each shard's share and how much of it its holder journaled.
  const { share, journaled } = sharesOf(ids, run.count, (index, id) => heldBy[index]!.has(id))
  for (let index = 1; index <= run.count; index++) {
    if (journaled[index]! < share[index]!) {
      const label = `${index}/${run.count}`
      throw new ShardMissingError(
        `digline merge was refused: shard ${label} of run ${run.key} (suite ${suite}) in ${describeStore(holderOf[index]!.store)} journaled ${journaled[index]} of its ${share[index]} case(s): it was stopped before it finished; nothing was filed`,
        `Finish it where its journal is with \`digline run --resume ${run.key} --shard ${label}\`, then run \`digline merge\` again.`,
        [label],
      )
    }
  }
  // Every case is in its own shard's journal (above), so together they hold exactly the suite's cases.
  assertNoCaseTwice(suite, run.key, journals, ids.length)
  return run
}

/** The checks that read no case: the shards are of one run, and each shard is held by exactly one journal. */
function checkShardsHeld(suite: string, journals: ShardJournal<PendingCases | Pending>[]): { run: MergedRun; holderOf: ShardJournal<PendingCases | Pending>[] } {
  const first = journals[0]!
  for (const other of journals.slice(1)) assertSameRun(suite, first, other)
  const { key } = first.pending
  const count = first.count
  const holders = new Map<number, ShardJournal<PendingCases | Pending>[]>()
  for (const j of journals) for (const shard of j.shards) holders.set(shard, [...(holders.get(shard) ?? []), j])
  const holderOf: ShardJournal<PendingCases | Pending>[] = []
  const stores: string[] = []
  for (let index = 1; index <= count; index++) {
    const held = holders.get(index) ?? []
    const label = `${index}/${count}`
    if (held.length === 0) {
      throw new ShardMissingError(
        `digline merge was refused: no store given holds shard ${label} of run ${key} (suite ${suite}); nothing was filed`,
        `Add the store directory of shard ${label} to \`digline merge\`, or run the shard (\`digline run --shard ${label}\` with the run's DIGLINE_CREATED_AT) first.`,
        [label],
      )
    }
    if (held.length > 1) {
      throw new ShardTwiceError(
        `digline merge was refused: shard ${label} of run ${key} (suite ${suite}) is held by ${held.map((j) => describeStore(j.store)).join(' and by ')}; nothing was filed`,
        `Give the store directory of shard ${label} once, then run \`digline merge\` again.`,
        [label],
      )
    }
    holderOf[index] = held[0]!
    if (!stores.includes(held[0]!.store)) stores.push(held[0]!.store)
  }
  return { run: { suite, key, count, stores }, holderOf }
}

function assertSameRun(suite: string, a: ShardJournal<PendingCases | Pending>, b: ShardJournal<PendingCases | Pending>): void {
  const ha = a.pending.header!
  const hb = b.pending.header!
  const differs = (field: string, then: unknown, now: unknown) =>
    new ShardsDisagreeError(
      `digline merge was refused: the shards of suite ${suite} in ${describeStore(a.store)} and ${describeStore(b.store)} are not shards of one run: their ${field} differs (${canonicalJson(then)} and ${canonicalJson(now)}); nothing was filed`,
      'Run every shard of a run from the same commit, config and DIGLINE_CREATED_AT, then merge the store directories of that one run.',
      [field],
    )
  if (a.count !== b.count) throw differs('shard count', a.count, b.count)
  for (const field of SHARED_FIELDS) if (canonicalJson(ha[field]) !== canonicalJson(hb[field])) throw differs(field, ha[field], hb[field])
  // Both were read from line 2 of a leg in the suite's order, so equal declarations have equal JSON (cases_digest was compared above).
  // The same line 2 read from two shards is one value (journal-planner.ts), so most runs are settled by identity.
  if (a.pending.declared !== b.pending.declared && JSON.stringify(a.pending.declared) !== JSON.stringify(b.pending.declared))
    throw differs('declared cases', a.pending.declared?.samples, b.pending.declared?.samples)
}

/**
 * Refuses a case journaled by two shards. `distinct` is how many cases the journals hold together:
 * when their sizes add up to it, none is held twice and no id is looked at (ADR 0566, 0569).
 */
function assertNoCaseTwice(suite: string, key: string, journals: ShardJournal<PendingCases | Pending>[], distinct: number): void {
  let held = 0
  for (const j of journals) held += journaledIds(j.pending).size
  if (held === distinct) return
  const seen = new Map<string, string>()
  for (const j of journals) {
    for (const id of journaledIds(j.pending).keys()) {
      const before = seen.get(id)
      if (before !== undefined) {
        throw new CaseInTwoShardsError(
          `digline merge was refused: case ${JSON.stringify(id)} of run ${key} (suite ${suite}) is journaled in ${describeStore(before)} and in ${describeStore(j.store)}, and a case belongs to one shard; nothing was filed`,
          'Merge the store directories of one run, each once, as its shards wrote them.',
          [id],
        )
      }
      seen.set(id, j.store)
    }
  }
}

/** The observed identities of all shards together: the target's model, and every judge's. */
export function mergeObserved(all: readonly Observed[]): Observed {
  const judges = new Map<string, string>()
  for (const o of all) for (const [name, model] of Object.entries(o.judge_models)) if (!judges.has(name)) judges.set(name, model)
  const judge_models: Record<string, string> = {}
  for (const name of [...judges.keys()].sort()) judge_models[name] = judges.get(name)!
  return { target_model: all.find((o) => o.target_model !== null)?.target_model ?? null, judge_models }
}

export interface MergeRequest {
  key: string
  stores: readonly string[]
}

/**
 * In the worker, with the suite as it is declared now: every shard's journal must match it (as a
 * resume's must), then the run is built from all of them and filed in `target`.
 */
export async function fileMergedRun(suite: ResolvedSuite, ctx: RunContext, target: Store, request: MergeRequest): Promise<Measured> {
  const journals: ShardJournal[] = []
  for (const dir of request.stores)
    journals.push(...(await shardJournalsIn(dir, ctx.tenant, wholeOf)).filter((j) => j.pending.suite === suite.name && j.pending.key === request.key))
  if (journals.length === 0) {
    throw new ShardMissingError(
      `digline merge found no journal of run ${request.key} (suite ${suite.name}) in ${request.stores.join(', ')}; nothing was filed`,
      'Run `digline merge` with the store directories the shards wrote.',
    )
  }
  // The CLI split the cases among the shards and checked each shard whole (planMerge); what the
  // worker reads again is checked by what it needs: one run, each shard held once, no case journaled
  // twice, a result for every case the suite declares (ADR 0566).
  const { run } = checkShardsHeld(suite.name, journals)
  const prepared = await prepareRun(suite, ctx, undefined, { pending: journals[0]!.pending, keepErrors: true })
  const now = journalHeaderFor(prepared, prepared.createdAt)
  for (const j of journals.slice(1)) assertResumable(j.pending, now)
  const done = new Map<string, CaseResult>()
  for (const j of journals) for (const [id, result] of j.pending.done) done.set(id, result)
  assertNoCaseTwice(suite.name, run.key, journals, done.size)
  const { results, missing } = resultsInSuiteOrder(suite, done)
  if (missing.length > 0) {
    throw new ShardMissingError(
      `digline merge was refused: run ${run.key} (suite ${suite.name}) has no journaled result for ${missing.length} case(s), first ${JSON.stringify(missing[0])}; nothing was filed`,
      `Finish the shard that holds it with \`digline run --resume ${run.key} --shard i/${run.count}\`, then merge again.`,
    )
  }
  const document = documentFromShards(prepared, results, mergeObserved(journals.map((j) => j.pending.observed)))
  const filing = await fileOnce(target, document)
  return { document, stored: filing.stored }
}
