// Following a suite's journals for a reader that asks again and again (`digline view` polls every
// second): each poll reads only what was appended since the last one, and folds it into what it
// already holds, instead of reading every journal whole (docs/adr/0396).
import type { DiglineErrorData } from '../errors/base.js'
import { emptyObserved, type JournalPlace, type JournalPlanner } from './journal-planner.js'
import type { LegLease, Pending } from './journal.js'

/** What one poll read of the journals: the bytes of their lines and, on the team store, the rows. */
export interface JournalReadCount {
  bytes: number
  rows: number
}

export interface PendingFollower {
  /**
   * The suite's journals as Store.pending gives them, having read only what was appended since the
   * last poll (the first poll reads everything). A journal whose legs were removed (its run filed,
   * or deleted) is dropped; one whose leg was replaced or cut shorter is read again from its start.
   * The maps of a Pending are the follower's own and grow with the next poll; nothing is written.
   */
  poll(): Promise<Pending[]>
  /** What the last poll read. */
  readonly lastRead: JournalReadCount
}

/** A followed journal's state as a Pending. */
export function pendingOf(
  place: JournalPlace,
  planner: JournalPlanner,
  fields: { legs: number[]; leases: LegLease[]; finished: boolean; refusal: DiglineErrorData | undefined },
): Pending {
  const base = { ...place, header: planner.header, legs: fields.legs, leases: fields.leases, finished: fields.finished }
  if (fields.refusal !== undefined) return { ...base, declared: undefined, refusal: fields.refusal, done: new Map(), causes: new Map(), observed: emptyObserved() }
  return { ...base, declared: planner.declared, refusal: undefined, done: planner.done, causes: planner.causes, observed: planner.observed }
}
