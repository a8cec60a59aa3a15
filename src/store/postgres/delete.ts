// The run delete on PostgreSQL (docs/delete.md, docs/adr/0042): one transaction. It takes the lock
// of the run asked for, then of each replay found (parents before children, as every writer's
// trigger takes them), refuses what must be refused, records every removal and removes the rows.
// A writer that comes later waits on a lock and then meets the removal record in the database.
import { LiveRunError, PromotedRunError } from '../errors.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { createdAtNow } from '../../suite/keys.js'
import { decodeLine } from '../journal-format.js'
import type { Lease, LegLease } from '../journal.js'
import { describeWriter, liveLeaseOf } from '../live-writer.js'
import { REMOVAL_RECORD_VERSION, emptyRemovedRun, removalRecordSchema, type Removal, type RemovedRun, type RunRef } from '../removal.js'
import type { PgConnection, PgQueryable } from './connection.js'
import { pgLeaseHolds } from './journal.js'

interface PlannedRun {
  ref: RunRef
  created_at: string | null
  document: boolean
  legs: LegLease[]
  replayOf: { suite: string; key: string } | null
}

interface ReplayRow {
  suite: string
  key: string
  created_at: string
  rejudged_from: string
  rejudged_from_suite: string | null
}

/** Takes the lock every writer of the key takes in the database (schema.ts, digline_refuse_removed). */
export async function lockKey(db: PgQueryable, ref: RunRef): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || '/' || $2 || '/' || $3, 0))`, [ref.tenant, ref.suite, ref.key])
}

export class PgDelete {
  constructor(
    private readonly db: PgConnection,
    private readonly baselineLocation: (tenant: string, suite: string) => string,
    private readonly now: () => string = createdAtNow,
  ) {}

  async deleteRun(tenant: string, suite: string, key: string): Promise<Removal> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    const asked = { tenant, suite, key }
    return this.db.transaction('deleting a run', async (db) => {
      await lockKey(db, asked)
      await this.assertNotUnderBaseline(db, asked)
      const already = await db.query('SELECT removed_at FROM digline_removals WHERE tenant = $1 AND suite = $2 AND key = $3', [tenant, suite, key])
      const alreadyRemovedAt = already.rows[0] === undefined ? undefined : String(already.rows[0].removed_at)
      const target = await this.planRun(db, asked, null)
      const replays = await this.replaysOf(db, target)
      if (!target.document && target.legs.length === 0 && replays.length === 0) {
        return { run: emptyRemovedRun(asked), replays: [], unread: 0, nothing: true, alreadyRemovedAt }
      }
      for (const run of [...replays, target]) this.assertNoLiveWriter(run, asked)
      const removedAt = this.now()
      for (const run of [target, ...replays]) await this.record(db, run, asked, removedAt)
      const removed: RemovedRun[] = []
      for (const run of [...replays, target]) removed.push(await this.remove(db, run))
      const run = removed.pop()!
      const nothing = [run, ...removed].every((r) => !r.document && r.legs === 0)
      return { run, replays: removed, unread: 0, nothing, alreadyRemovedAt }
    })
  }

  private async assertNotUnderBaseline(db: PgQueryable, ref: RunRef): Promise<void> {
    const { rows } = await db.query('SELECT promoted_from, document FROM digline_baselines WHERE tenant = $1 AND suite = $2', [ref.tenant, ref.suite])
    if (rows[0] === undefined || rows[0].promoted_from !== ref.key) return
    let promotedAt = 'an unknown time'
    try {
      promotedAt = String((JSON.parse(String(rows[0].document)) as { promoted_at?: unknown }).promoted_at)
    } catch {
      // The refusal stands without the time.
    }
    throw new PromotedRunError(
      `refused to delete run ${ref.key} of suite ${ref.suite} (tenant ${ref.tenant}): ${this.baselineLocation(ref.tenant, ref.suite)} was promoted from it (promoted at ${promotedAt}), whether or not the run is still stored. A delete never removes the run under a baseline; nothing was removed`,
      `promote another run first: \`digline promote --suite ${ref.suite} --run NEW_KEY --replacing ${ref.key}\`, then repeat \`digline delete --suite ${ref.suite} --run ${ref.key}\``,
      ['key'],
    )
  }

  private async planRun(db: PgQueryable, ref: RunRef, replayOf: PlannedRun['replayOf']): Promise<PlannedRun> {
    const doc = await db.query('SELECT created_at, rejudged_from, rejudged_from_suite FROM digline_runs WHERE tenant = $1 AND suite = $2 AND key = $3', [
      ref.tenant,
      ref.suite,
      ref.key,
    ])
    const legs = await db.query(
      'SELECT leg, header_line, lease_expires_at > clock_timestamp() AS fresh FROM digline_journal_legs WHERE tenant = $1 AND suite = $2 AND key = $3 ORDER BY leg',
      [ref.tenant, ref.suite, ref.key],
    )
    const row = doc.rows[0]
    const leases: LegLease[] = []
    let fromLeg: string | undefined
    for (const leg of legs.rows) {
      const decoded = decodeLine(Buffer.from(String(leg.header_line), 'utf8'), ref)
      const header = decoded.ok && decoded.record.kind === 'header' ? decoded.record.header : undefined
      fromLeg ??= header?.created_at
      const lease: Lease = header?.lease ?? { host: '(unreadable header)', boot: null, pid: 1, start_time: null }
      leases.push({ leg: Number(leg.leg), lease, since: header?.started_at ?? '(unknown)', live: pgLeaseHolds(lease, leg.fresh === true) })
    }
    const parent = row?.rejudged_from === null || row?.rejudged_from === undefined ? null : { suite: String(row.rejudged_from_suite ?? ref.suite), key: String(row.rejudged_from) }
    return { ref, created_at: row === undefined ? (fromLeg ?? null) : String(row.created_at), document: row !== undefined, legs: leases, replayOf: replayOf ?? parent }
  }

  /**
   * The replays chained to the target through every suite of the tenant, leaves first. Each one's
   * key is locked once found, then the tenant is read again, until a reading finds nothing new: a
   * replay of a locked key filed after that waits for this delete and then meets its record.
   */
  private async replaysOf(db: PgQueryable, target: PlannedRun): Promise<PlannedRun[]> {
    const { tenant } = target.ref
    const locked = new Set<string>([`${target.ref.suite}/${target.ref.key}`])
    for (;;) {
      const { rows } = await db.query(
        'SELECT suite, key, created_at, rejudged_from, rejudged_from_suite FROM digline_runs WHERE tenant = $1 AND rejudged_from IS NOT NULL ORDER BY suite, key',
        [tenant],
      )
      const found = chain(target.ref, rows as unknown as ReplayRow[])
      const fresh = found.filter((r) => !locked.has(`${r.row.suite}/${r.row.key}`))
      if (fresh.length === 0) {
        const planned: PlannedRun[] = []
        for (const { row, parentSuite } of found.reverse()) {
          planned.push(await this.planRun(db, { tenant, suite: row.suite, key: row.key }, { suite: parentSuite, key: row.rejudged_from }))
        }
        return planned
      }
      for (const { row } of fresh) {
        await lockKey(db, { tenant, suite: row.suite, key: row.key })
        locked.add(`${row.suite}/${row.key}`)
      }
    }
  }

  private assertNoLiveWriter(run: PlannedRun, asked: RunRef): void {
    const live = liveLeaseOf(run.legs)
    if (live === undefined) return
    throw new LiveRunError(
      `refused to delete run ${asked.key} of suite ${asked.suite}: run ${run.ref.key} (suite ${run.ref.suite}) is still being written by ${describeWriter(live)}, whose lease in the team store holds (its heartbeat is fresh); nothing was removed`,
      `let process ${live.lease.pid} on host ${live.lease.host} finish its run (or stop it if you mean to abandon that run), then repeat \`digline delete --suite ${asked.suite} --run ${asked.key}\``,
    )
  }

  private async record(db: PgQueryable, run: PlannedRun, asked: RunRef, removedAt: string): Promise<void> {
    const record = removalRecordSchema.parse({
      removal_version: REMOVAL_RECORD_VERSION,
      tenant: run.ref.tenant,
      suite: run.ref.suite,
      key: run.ref.key,
      created_at: run.created_at,
      removed_at: removedAt,
      removed: { document: run.document, legs: run.legs.length },
      replay_of: run.replayOf,
      requested: { suite: asked.suite, key: asked.key },
    })
    await db.query(`INSERT INTO digline_removals (tenant, suite, key, removed_at, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [
      run.ref.tenant,
      run.ref.suite,
      run.ref.key,
      removedAt,
      JSON.stringify(record, null, 2),
    ])
  }

  private async remove(db: PgQueryable, run: PlannedRun): Promise<RemovedRun> {
    const { tenant, suite, key } = run.ref
    const legs = await db.query('DELETE FROM digline_journal_legs WHERE tenant = $1 AND suite = $2 AND key = $3', [tenant, suite, key])
    const doc = await db.query('DELETE FROM digline_runs WHERE tenant = $1 AND suite = $2 AND key = $3', [tenant, suite, key])
    return { ref: run.ref, created_at: run.created_at, legs: legs.rowCount ?? 0, document: (doc.rowCount ?? 0) > 0 }
  }
}

/** The replays of `ref` through the rows, breadth first (as the file store's planner walks them). */
function chain(ref: RunRef, rows: readonly ReplayRow[]): { row: ReplayRow; parentSuite: string }[] {
  const byParent = new Map<string, ReplayRow[]>()
  for (const row of rows) byParent.set(row.rejudged_from, [...(byParent.get(row.rejudged_from) ?? []), row])
  const found: { row: ReplayRow; parentSuite: string }[] = []
  const visited = new Set<string>()
  const queue = [{ key: ref.key, suite: ref.suite }]
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const row of byParent.get(node.key) ?? []) {
      const id = `${row.suite}/${row.key}`
      const named = row.rejudged_from_suite
      if (visited.has(id) || (named !== null && named !== node.suite)) continue
      visited.add(id)
      found.push({ row, parentSuite: named ?? node.suite })
      queue.push({ key: row.key, suite: row.suite })
    }
  }
  return found
}
