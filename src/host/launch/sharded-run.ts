// One run written by several shards: the state of each shard as its journal shows it, the run
// document built from the union of the shards' journaled cases, and filing it exactly once even
// when two shards finish together (docs/adr/0051-the-last-shard-files-the-run.md).
import type { CaseResult, Observed, RunDocument } from '../../document/schema.js'
import { serializeRun } from '../../document/serialize.js'
import { RunExistsError } from './errors.js'
import { RunNotFoundError } from '../../store/errors.js'
import type { Store, StoredRun } from '../../store/contract.js'
import type { Pending } from '../../store/journal.js'
import { keyFor } from '../../suite/keys.js'
import type { ResolvedSuite } from '../../suite/types.js'
import { buildRunDocument } from './measure-run.js'
import type { Prepared } from './prepare-run.js'
import { readShardLabel, shardOfLeg, sharesOf } from './shard.js'

export type ShardState = 'done' | 'running' | 'missing'

export interface ShardProgress {
  /** `i/N` */
  shard: string
  state: ShardState
  /** Cases of this shard's share journaled so far, of its share. */
  journaled: number
  share: number
}

/** Each shard of a sharded journal: done (its whole share journaled), running (a leg's lease holds) or missing; undefined for a journal that was not sharded. */
export function shardsOf(pending: Pending): ShardProgress[] | undefined {
  const count = readShardLabel(pending.header?.shard)?.count
  if (count === undefined || pending.declared === undefined) return undefined
  const { share, journaled } = sharesOf(Object.keys(pending.declared.digests), count, (_, id) => pending.done.has(id))
  const out: ShardProgress[] = []
  for (let index = 1; index <= count; index++) {
    const running = pending.leases.some((l) => l.live && shardOfLeg(l.leg, count) === index)
    out.push({
      shard: `${index}/${count}`,
      state: journaled[index] === share[index] ? 'done' : running ? 'running' : 'missing',
      journaled: journaled[index]!,
      share: share[index]!,
    })
  }
  return out
}

/** The results of a run in its suite's order, or the ids still missing from the shards' journals. */
export function resultsInSuiteOrder(suite: ResolvedSuite, done: ReadonlyMap<string, CaseResult>): { results: CaseResult[]; missing: string[] } {
  const results: CaseResult[] = []
  const missing: string[] = []
  for (const c of suite.cases) {
    const result = done.get(c.id)
    if (result === undefined) missing.push(c.id)
    else results.push(result)
  }
  return { results, missing }
}

/** The document an unsharded run with the same created_at would have written, from every shard's cases. */
export function documentFromShards(prepared: Prepared, results: CaseResult[], observed: Observed): RunDocument {
  return buildRunDocument(prepared, { results, observed, targetCalls: 0 })
}

export interface Filing {
  stored: StoredRun
  /** This process wrote it; false when another shard had filed the same bytes first. */
  here: boolean
}

/**
 * Files the run once. Two shards that both see the run complete build the same bytes; whichever
 * write the store refuses or overwrites, a document that reads back byte-identical is the run filed,
 * and anything else under the key is refused as the store refused it.
 */
export async function fileOnce(store: Store, doc: RunDocument): Promise<Filing> {
  const key = keyFor(doc.created_at, doc.config_hash)
  const before = await filedDocument(store, doc.tenant, doc.suite, key)
  if (before !== undefined && serializeRun(before) === serializeRun(doc)) return { stored: elsewhere(doc, key), here: false }
  if (before !== undefined) {
    throw new RunExistsError(
      `refused to file run ${key} of suite ${doc.suite} from its shards: another document is already filed under that key, and a run is never overwritten`,
      `Compare it with \`digline show --suite ${doc.suite} --run ${key}\`; run the shards again with another DIGLINE_CREATED_AT, or \`digline delete --suite ${doc.suite} --run ${key}\` first`,
      ['DIGLINE_CREATED_AT'],
    )
  }
  try {
    return { stored: await store.writeRun(doc), here: true }
  } catch (error) {
    const after = await filedDocument(store, doc.tenant, doc.suite, key).catch(() => undefined)
    if (after !== undefined && serializeRun(after) === serializeRun(doc)) return { stored: elsewhere(doc, key), here: false }
    throw error
  }
}

function elsewhere(doc: RunDocument, key: string): StoredRun {
  return { tenant: doc.tenant, suite: doc.suite, key, location: `run ${key} of suite ${doc.suite} (filed by another shard)` }
}

/** The filed document of KEY, or undefined when none is filed. */
export async function filedDocument(store: Store, tenant: string, suite: string, key: string): Promise<RunDocument | undefined> {
  try {
    return await store.readRun(tenant, suite, key)
  } catch (error) {
    if (error instanceof RunNotFoundError) return undefined
    throw error
  }
}
