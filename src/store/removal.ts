// What a delete returns, and the removal record it leaves per removed run (docs/adr/0014).
import type { z } from 'zod'
import { lazySchema } from '../suite/zod-on-demand.js'
import { RunRemovedError } from './errors.js'

/** A run as the store addresses it; `key` is always the run's own key, never a file's name. */
export interface RunRef {
  tenant: string
  suite: string
  key: string
}

export interface RemovedRun {
  ref: RunRef
  /** Read before removing, from the document or else a leg's header; null when nothing readable carried it. */
  created_at: string | null
  /** Journal legs removed. */
  legs: number
  /** Whether a run document was removed. */
  document: boolean
}

export interface Removal {
  /** The run asked for. */
  run: RemovedRun
  /** Its replays, through every suite of the tenant, in the order removed: leaves first. */
  replays: RemovedRun[]
  /** Documents of the tenant the delete could not read: a count of unknowns, not of missed replays. */
  unread: number
  /** No document, no leg and no replay was removed. */
  nothing: boolean
  /** When a removal record for the run already existed before this call: the time it was first removed. */
  alreadyRemovedAt: string | undefined
}

export const REMOVAL_RECORD_VERSION = 1

const refSchema = lazySchema((z) => z.object({ suite: z.string(), key: z.string() }))

/** `.digline/<tenant>/removed/<suite>/<key>.json`: written before anything of the run is removed. */
export const removalRecordSchema = lazySchema((z) =>
  z.object({
    removal_version: z.literal(REMOVAL_RECORD_VERSION),
    tenant: z.string(),
    suite: z.string(),
    key: z.string(),
    created_at: z.string().nullable(),
    removed_at: z.string(),
    /** What the delete found to remove when it wrote the record. */
    removed: z.object({ document: z.boolean(), legs: z.number().int().nonnegative() }),
    /** The run this one re-judged, when it is a replay. */
    replay_of: refSchema.nullable(),
    /** The run the delete was asked for (itself, or the run this replay chains to). */
    requested: refSchema,
  }),
)

export type RemovalRecord = z.infer<typeof removalRecordSchema>

/** That a key was removed. A record that exists but cannot be read still says removed (`record` undefined). */
export interface RemovalNotice {
  location: string
  record: RemovalRecord | undefined
}

export function emptyRemovedRun(ref: RunRef): RemovedRun {
  return { ref, created_at: null, legs: 0, document: false }
}

/** The refusal every writer raises for a removed key; `doing` completes "refused to … run K". */
export function runRemovedError(ref: RunRef, notice: RemovalNotice, doing: string): RunRemovedError {
  const when = notice.record === undefined ? `(its removal record ${notice.location} cannot be read, and still says removed)` : `at ${notice.record.removed_at}`
  return new RunRemovedError(
    `refused to ${doing} run ${ref.key} of suite ${ref.suite} (tenant ${ref.tenant}): it was removed by \`digline delete\` ${when}, and a removed key is never written again`,
    `make a new run with \`vitest run\`; if a delete of ${ref.key} was interrupted, finish it with \`digline delete --suite ${ref.suite} --run ${ref.key}\``,
    ['key'],
  )
}
