// What `digline pending` and the MCP `pending` tool report of each pending journal: one plain row
// per run, the same in both front ends.
import type { DiglineErrorData } from '../../errors/base.js'
import type { Store } from '../../store/contract.js'
import { pendingOfTenant } from '../launch/choose-resume.js'
import { shardsOf, type ShardProgress } from '../launch/sharded-run.js'

export interface PendingRow {
  suite: string
  key: string
  legs: number[]
  journaled: number
  errored: number
  finished: boolean
  refusal: DiglineErrorData | null
  /** A sharded run's shards (done, running, missing); null for a run that is not sharded. */
  shards: ShardProgress[] | null
}

export async function pendingRows(store: Store, tenant: string, suite?: string): Promise<PendingRow[]> {
  return (await pendingOfTenant(store, tenant, suite)).map((p) => ({
    suite: p.suite,
    key: p.key,
    legs: p.legs,
    journaled: p.done.size,
    errored: p.causes.size,
    finished: p.finished,
    refusal: p.refusal ?? null,
    shards: shardsOf(p) ?? null,
  }))
}
