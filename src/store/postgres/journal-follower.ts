// Following the team store's journals (docs/adr/0396): per leg, the last record number folded. A
// poll reads, in one snapshot, the suite's legs (key, leg and whether the lease is fresh: never the
// header and declared cases again), the header lines of legs not seen before, the records numbered
// after the last one folded, and which of the runs are filed. A leg that is gone while its journal
// is not makes the journal be read again from its start; a journal with no leg left is dropped.
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { JournalPlanner, type JournalPlace } from '../journal-planner.js'
import type { Pending } from '../journal.js'
import { pendingOf, type JournalReadCount, type PendingFollower } from '../pending-follower.js'
import type { PgConnection } from './connection.js'
import { legLocation, pgLeaseHolds, type PgJournalHooks } from './journal.js'

interface LegRead {
  leg: number
  /** The last record number folded (0: only the header and declared cases). */
  seq: number
}

interface Followed {
  planner: JournalPlanner
  legs: LegRead[]
  refusal: DiglineErrorData | undefined
}

export class PgJournalFollower implements PendingFollower {
  private readonly journals = new Map<string, Followed>()
  lastRead: JournalReadCount = { bytes: 0, rows: 0 }

  constructor(
    private readonly db: PgConnection,
    private readonly hooks: PgJournalHooks,
    private readonly tenant: string,
    private readonly suite: string,
  ) {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
  }

  private fresh(key: string): Followed {
    const suite = this.suite
    return {
      planner: new JournalPlanner({ tenant: this.tenant, suite, key }, () => `remove the run with \`digline delete --suite ${suite} --run ${key}\``),
      legs: [],
      refusal: undefined,
    }
  }

  async poll(): Promise<Pending[]> {
    const { tenant, suite } = this
    const read: JournalReadCount = { bytes: 0, rows: 0 }
    const { legs, heads, records, filed } = await this.db.transaction('following the journal', async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const legs = (
        await client.query(`SELECT key, leg, lease_expires_at > clock_timestamp() AS fresh FROM digline_journal_legs WHERE tenant = $1 AND suite = $2 ORDER BY key, leg`, [
          tenant,
          suite,
        ])
      ).rows.map((r) => ({ key: String(r.key), leg: Number(r.leg), fresh: r.fresh === true }))
      const present = new Set(legs.map((l) => `${l.key}\n${l.leg}`))
      // a journal one of whose legs is gone is read again whole
      for (const [key, followed] of this.journals) if (followed.legs.some((l) => !present.has(`${key}\n${l.leg}`))) this.journals.delete(key)
      const after = legs.map((l) => this.journals.get(l.key)?.legs.find((x) => x.leg === l.leg)?.seq ?? -1)
      const unseen = legs.filter((_, i) => after[i] === -1)
      const heads =
        unseen.length === 0
          ? []
          : (
              await client.query(
                `SELECT l.key, l.leg, l.header_line, l.declared_line FROM digline_journal_legs l JOIN unnest($3::text[], $4::int[]) AS c(key, leg) ON l.key = c.key AND l.leg = c.leg
                 WHERE l.tenant = $1 AND l.suite = $2 ORDER BY l.key, l.leg`,
                [tenant, suite, unseen.map((l) => l.key), unseen.map((l) => l.leg)],
              )
            ).rows
      const records =
        legs.length === 0
          ? []
          : (
              await client.query(
                // per leg, a range of its primary key: only the rows after the last one folded are touched
                `SELECT c.key, c.leg, r.seq, r.line FROM unnest($3::text[], $4::int[], $5::int[]) AS c(key, leg, after)
                 CROSS JOIN LATERAL (SELECT seq, line FROM digline_journal_records WHERE tenant = $1 AND suite = $2 AND key = c.key AND leg = c.leg AND seq > c.after ORDER BY seq) r
                 ORDER BY c.key, c.leg, r.seq`,
                [tenant, suite, legs.map((l) => l.key), legs.map((l) => l.leg), after.map((a) => Math.max(0, a))],
              )
            ).rows
      const keys = [...new Set(legs.map((l) => l.key))]
      const filed =
        keys.length === 0 ? [] : (await client.query(`SELECT key FROM digline_runs WHERE tenant = $1 AND suite = $2 AND key = ANY($3::text[])`, [tenant, suite, keys])).rows
      return { legs, heads, records, filed: new Set(filed.map((r) => String(r.key))) }
    })
    read.rows = heads.length + records.length
    const byKey = new Map<string, typeof legs>()
    for (const l of legs) byKey.set(l.key, [...(byKey.get(l.key) ?? []), l])
    for (const key of [...this.journals.keys()]) if (!byKey.has(key)) this.journals.delete(key)
    const headOf = new Map(heads.map((h) => [`${String(h.key)}\n${String(h.leg)}`, h]))
    const linesOf = new Map<string, { seq: number; line: string }[]>()
    for (const r of records) {
      const id = `${String(r.key)}\n${String(r.leg)}`
      const lines = linesOf.get(id) ?? []
      lines.push({ seq: Number(r.seq), line: String(r.line) })
      linesOf.set(id, lines)
    }
    const out: Pending[] = []
    for (const [key, rows] of byKey) {
      const place: JournalPlace = { tenant, suite, key }
      const followed = this.journals.get(key) ?? this.fresh(key)
      this.journals.set(key, followed)
      if (followed.refusal === undefined) {
        try {
          for (const { leg } of rows) {
            const file = legLocation(this.hooks, place, leg)
            let known = followed.legs.find((l) => l.leg === leg)
            const head = headOf.get(`${key}\n${leg}`)
            if (known === undefined) {
              if (head === undefined) continue
              const bytes = Buffer.from(`${String(head.header_line)}\n${String(head.declared_line)}\n`, 'utf8')
              read.bytes += bytes.length
              followed.planner.addLeg({ leg, file, bytes })
              known = { leg, seq: 0 }
              followed.legs.push(known)
              followed.legs.sort((a, b) => a.leg - b.leg)
            }
            const lines = linesOf.get(`${key}\n${leg}`) ?? []
            if (lines.length === 0) continue
            const bytes = Buffer.from(`${lines.map((l) => l.line).join('\n')}\n`, 'utf8')
            read.bytes += bytes.length
            followed.planner.addLeg({ leg, file, bytes }, known.seq + 3)
            known.seq = lines[lines.length - 1]!.seq
          }
        } catch (error) {
          if (!isDiglineError(error)) throw error
          followed.refusal = error.toData()
        }
      }
      const fresh = new Map(rows.map((row) => [row.leg, row.fresh]))
      const leases = followed.planner.leases.map((l) => ({ ...l, live: pgLeaseHolds(l.lease, fresh.get(l.leg) ?? false) }))
      out.push(pendingOf(place, followed.planner, { legs: rows.map((r) => r.leg), leases, finished: filed.has(key), refusal: followed.refusal }))
    }
    this.lastRead = read
    return out
  }
}
