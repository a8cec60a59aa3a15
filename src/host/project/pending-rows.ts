// What `digline pending` and the MCP `pending` tool report of each pending journal: one plain row
// per run, the same in both front ends. A run a live process is still writing is shown as live,
// with the refusal a resume would meet, and no command to resume it (ADR 0111).
import type { DiglineErrorData } from '../../errors/base.js'
import type { Store } from '../../store/contract.js'
import { liveLeaseOf } from '../../store/live-writer.js'
import { pendingOfTenant } from '../launch/choose-resume.js'
import { shardsOf, type ShardProgress } from '../launch/sharded-run.js'
import { resumeRefusal } from './pending-journals.js'

/** The writer whose lease holds a leg of the run now. */
export interface LiveWriter {
  pid: number
  host: string
  leg: number
  /** When that leg was started. */
  since: string
}

export interface PendingRow {
  suite: string
  key: string
  legs: number[]
  journaled: number
  errored: number
  finished: boolean
  /** The refusal `digline run --resume KEY` would meet now (an unreadable journal, a removed run, a live writer); null when it would go ahead, or the run is finished. */
  refusal: DiglineErrorData | null
  /** The process still writing the run (its lease holds), or null. */
  live: LiveWriter | null
  /** The command that finishes the run, or null when there is none now (refused, live or finished). */
  resume: string | null
  /** A sharded run's shards (done, running, missing); null for a run that is not sharded. */
  shards: ShardProgress[] | null
}

export async function pendingRows(store: Store, tenant: string, suite?: string): Promise<PendingRow[]> {
  const rows: PendingRow[] = []
  for (const p of await pendingOfTenant(store, tenant, suite)) {
    const held = liveLeaseOf(p.leases)
    const refusal = p.finished ? (p.refusal ?? null) : ((await resumeRefusal(store, p)) ?? null)
    rows.push({
      suite: p.suite,
      key: p.key,
      legs: p.legs,
      journaled: p.done.size,
      errored: p.causes.size,
      finished: p.finished,
      refusal,
      live: held === undefined ? null : { pid: held.lease.pid, host: held.lease.host, leg: held.leg, since: held.since },
      resume: p.finished || refusal !== null ? null : `digline run --resume ${p.key}`,
      shards: shardsOf(p) ?? null,
    })
  }
  return rows
}
