// A shard of a run: shard i of N takes its share of every suite's cases. The split depends on the
// case ids alone (not on their order), and every shard's share differs from another's by at most
// one case. A shard's journal legs are numbered i, i+N, i+2N…, so shards never take each other's
// leg, and the leg number says which shard wrote it (docs/adr/0050-the-shard-split.md).
import * as crypto from 'node:crypto'
import { createHash } from 'node:crypto'
import { InvalidShardError, ShardWithoutCreatedAtError } from './errors.js'

export interface Shard {
  /** 1-based. */
  index: number
  count: number
}

const SHARD = /^([1-9][0-9]{0,5})\/([1-9][0-9]{0,5})$/

/** `i/N` as written in DIGLINE_SHARD, `--shard` and a journal header. */
export function shardLabel(shard: Shard): string {
  return `${shard.index}/${shard.count}`
}

/** Reads `i/N`, refusing anything else by name; `source` says where the text came from. */
export function parseShard(text: string, source: string): Shard {
  const match = SHARD.exec(text.trim())
  const index = match === null ? NaN : Number(match[1])
  const count = match === null ? NaN : Number(match[2])
  if (match === null || index > count) {
    throw new InvalidShardError(
      `${source} ${JSON.stringify(text)} is not a shard: write i/N with whole numbers 1 ≤ i ≤ N (shard i of N), for example 2/4`,
      'Give every machine of the run the same N and its own i from 1 to N, for example `digline run --shard 2/4`.',
      [source],
    )
  }
  return { index, count }
}

/** The shard's label, or undefined when the text is not one (a journal header read back). */
export function readShardLabel(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined
  try {
    return parseShard(text, 'shard')
  } catch {
    return undefined
  }
}

const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash

function rankOf(id: string): string {
  return oneShotHash === undefined ? createHash('sha256').update(id, 'utf8').digest('hex') : oneShotHash('sha256', id, 'hex')
}

/**
 * case id → the shard (1..count) that runs it. The ids are ranked by the sha256 of the id (ties,
 * which need equal hashes, by the id) and dealt out in turn, so each shard gets ⌊n/N⌋ or ⌈n/N⌉.
 */
export function splitCases(ids: Iterable<string>, count: number): Map<string, number> {
  const unique = [...new Set(ids)]
  const order = rankedOnce(unique)
  const owner = new Map<string, number>()
  for (let position = 0; position < order.length; position++) owner.set(unique[order[position]!]!, (position % count) + 1)
  return owner
}

/** The shard (1..count) that runs each of `ids`, which are distinct, at the id's own index: splitCases without its map. */
export function shardOfEach(ids: readonly string[], count: number): Uint32Array {
  const order = rankedOnce(ids)
  const shards = new Uint32Array(ids.length)
  for (let position = 0; position < order.length; position++) shards[order[position]!] = (position % count) + 1
  return shards
}

/**
 * Each shard's share of `ids` (distinct) and how much of it `holds(index, id)` says is journaled,
 * indexed 1..count, in one pass over the ids.
 */
export function sharesOf(ids: readonly string[], count: number, holds: (index: number, id: string) => boolean): { share: number[]; journaled: number[] } {
  const owner = shardOfEach(ids, count)
  const share = new Array<number>(count + 1).fill(0)
  const journaled = new Array<number>(count + 1).fill(0)
  for (let i = 0; i < ids.length; i++) {
    const index = owner[i]!
    share[index]! += 1
    if (holds(index, ids[i]!)) journaled[index]! += 1
  }
  return { share, journaled }
}

let lastRanked: { ids: readonly string[]; order: Uint32Array } | undefined

/** The rank order of the ids, from the last call when it ranked these same ids (a launch splits one suite's ids several times). */
function rankedOnce(ids: readonly string[]): Uint32Array {
  const last = lastRanked
  if (last !== undefined && last.ids.length === ids.length && last.ids.every((id, i) => id === ids[i])) return last.order
  const order = rankOrder(ids)
  lastRanked = { ids, order }
  return order
}

/** The bits of a sort key that hold the id's position: enough for every position below `n`. */
export function positionBits(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(n + 1)))
}

/**
 * The positions of `ids` in rank order: each id's key is the top bits of its sha256 above its own
 * position, so one numeric sort of a Float64Array (every key below 2^53, so exact) orders them
 * without comparing hex strings (ADR 0561). Ids whose top bits tie are ordered by their whole hash,
 * then the id, as the ranks themselves order them. `bits` is positionBits(ids.length) but for a
 * test that narrows the hash's share to make ties common.
 */
export function rankOrder(ids: readonly string[], bits = positionBits(ids.length)): Uint32Array {
  const n = ids.length
  const slot = 2 ** bits
  // the rank's first 13 hex digits are its top 52 bits; a key keeps the top 53 − bits of them
  const dropped = 2 ** (bits - 1)
  const keys = new Float64Array(n)
  for (let i = 0; i < n; i++) keys[i] = Math.floor(parseInt(rankOf(ids[i]!).slice(0, 13), 16) / dropped) * slot + i
  keys.sort()
  const order = new Uint32Array(n)
  for (let p = 0; p < n; p++) order[p] = keys[p]! % slot
  let start = 0
  for (let p = 1; p <= n; p++) {
    if (p < n && Math.floor(keys[p]! / slot) === Math.floor(keys[start]! / slot)) continue
    if (p - start > 1) orderTied(ids, order.subarray(start, p))
    start = p
  }
  return order
}

/** Positions whose keys tie, ordered in place by the whole rank, then the id. */
function orderTied(ids: readonly string[], tied: Uint32Array): void {
  const ranked = Array.from(tied, (i) => ({ i, id: ids[i]!, rank: rankOf(ids[i]!) }))
  ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  ranked.forEach(({ i }, p) => (tied[p] = i))
}

/** The ids shard `shard` runs, in the order given. */
export function casesOfShard(ids: readonly string[], shard: Shard): Set<string> {
  const owner = splitCases(ids, shard.count)
  return new Set(ids.filter((id) => owner.get(id) === shard.index))
}

/** The shard that wrote leg `leg` of a run split in `count`. */
export function shardOfLeg(leg: number, count: number): number {
  return ((leg - 1) % count) + 1
}

/** The leg a launch of `shard` writes next: its own number above every leg already there. */
export function nextLegOf(shard: Shard, legs: readonly number[]): number {
  const highest = Math.max(0, ...legs)
  let leg = shard.index
  while (leg <= highest) leg += shard.count
  return leg
}

/**
 * Every shard of a run must share created_at, and so the key: a shard that would take its own instant
 * is refused before any call. The one place this is refused, for `digline run --shard` and for a
 * worker started with DIGLINE_SHARD alike.
 */
export function assertShardCreatedAt(shard: Shard, env: NodeJS.ProcessEnv): void {
  const createdAt = env.DIGLINE_CREATED_AT
  if (createdAt !== undefined && createdAt !== '') return
  throw new ShardWithoutCreatedAtError(
    `refused shard ${shardLabel(shard)}: DIGLINE_CREATED_AT is not set, so this shard would take its own created_at and key and never join the other shards' run; nothing was called`,
    'Set DIGLINE_CREATED_AT to the same instant on every shard (in CI, one value from the workflow run), for example DIGLINE_CREATED_AT=2026-11-29T22:39:56.123456Z',
    ['DIGLINE_CREATED_AT'],
  )
}
