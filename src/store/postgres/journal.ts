// The journal on PostgreSQL: one row per leg (its header and declared cases as the journal format's
// own lines, and the lease's expiry), one row per record, committed before append() returns. The
// lines are those of journal-format.ts, checksummed and bound to their run, and are folded by the
// same planner as the file store's legs. A leg's lease is renewed by a heartbeat while it is open.
import { hostname } from 'node:os'
import type { CaseProgress } from '../../document/case-progress.js'
import type { Observed } from '../../document/schema.js'
import { JournalLegExistsError, RunNotFoundError, StoreWriteError } from '../errors.js'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { keyFor } from '../../suite/keys.js'
import { assertJournalHeaderWithinBound } from '../header-bounds.js'
import { decodeLine, encodeCase, encodeDeclared, encodeHeader, encodeObserved, heldObserved, sameObserved, type RunBinding } from '../journal-format.js'
import { JournalPlanner, type JournalPlace } from '../journal-planner.js'
import type { Journal, JournalOpening, Lease, Pending, PendingCases } from '../journal.js'
import { bootId, leaseHolds } from '../live-writer.js'
import { endOfTurn } from '../end-of-turn.js'
import { isConnectionFailure, sqlstateOf, type PgConnection, type PgNamedStatement } from './connection.js'

/** Appends sent in one INSERT at most (a run has one append in flight per slot). */
const MAX_BATCH = 256

/** INSERTs of up to this many records are prepared statements, one per count, kept by each connection. */
const MAX_PREPARED_LINES = 32

/** The INSERT of `count` records: the leg's key in $1–$4, then each record's number and line. */
function insertStatement(count: number): string {
  const values = Array.from({ length: count }, (_, i) => `($1, $2, $3, $4, $${5 + 2 * i}, $${6 + 2 * i})`).join(', ')
  return `INSERT INTO digline_journal_records (tenant, suite, key, leg, seq, line) VALUES ${values}`
}

const preparedInserts = new Map<number, string>()

function insertOf(count: number, values: readonly unknown[]): string | PgNamedStatement {
  if (count > MAX_PREPARED_LINES) return insertStatement(count)
  let text = preparedInserts.get(count)
  if (text === undefined) preparedInserts.set(count, (text = insertStatement(count)))
  return { name: `digline_journal_append_${count}`, text, values }
}

export interface PgJournalHooks {
  /** The refusal for a removed key (read from its removal record), or the error as it was. */
  removedOr(place: JournalPlace, doing: string, error: unknown): Promise<unknown>
  /** For messages: where a run of the team store is. */
  locationOf(place: JournalPlace): string
  /** How long a leg's lease holds without a heartbeat. */
  leaseTtlMs: number
}

/** The waits before each look-up of an append whose connection was lost: about three seconds in all. */
const RECOVERY_BACKOFF_MS = [0, 50, 100, 200, 400, 800, 1600]

function lostConnection(error: unknown): boolean {
  return isConnectionFailure(error) || (isDiglineError(error) && error.name === 'TeamStoreUnreachableError')
}

export function legLocation(hooks: PgJournalHooks, place: JournalPlace, leg: number): string {
  return `leg ${leg} of the journal of ${hooks.locationOf(place)}`
}

/** The lease names a process of this machine (same host name and boot): whether it is alive is known here, at once. */
function onThisMachine(lease: Lease): boolean {
  const boot = bootId()
  return lease.host === hostname() && lease.boot !== null && boot !== null && lease.boot === boot
}

/** A lease holds while its heartbeat is fresh; on this machine, only while its process is alive too (and never for this process). */
export function pgLeaseHolds(lease: Lease, fresh: boolean): boolean {
  return fresh && (onThisMachine(lease) ? leaseHolds(lease) : true)
}

/**
 * A header that would not read back would make the leg unknown at the next resume: refuse to write
 * it. Appended records are not read back: this process built them, and the journal-format tests
 * pin that every record kind encodes to a line that decodes to the same value.
 */
function readable(binding: RunBinding, line: Buffer, what: string): string {
  const body = line.subarray(0, line.length - 1)
  const decoded = decodeLine(body, binding)
  if (!decoded.ok) throw new TypeError(`digline could not journal ${what}: its record ${decoded.why} when read back (a bug in digline: report it with this message)`)
  return body.toString('utf8')
}

/** A line as the `line` column holds it: without its newline. */
function lineText(line: Buffer): string {
  return line.toString('utf8', 0, line.length - 1)
}

export class PgJournal {
  /** The legs this process has open, so closing the store stops their heartbeats. */
  readonly open = new Set<{ stopHeartbeat(): void }>()

  constructor(
    private readonly db: PgConnection,
    private readonly hooks: PgJournalHooks,
  ) {}

  async openJournal(opening: JournalOpening, leg: number): Promise<Journal> {
    const { declared, ...header } = opening
    assertSafeSegment('tenant', header.tenant)
    assertSafeSegment('suite', header.suite)
    const key = keyFor(header.created_at, header.config_hash)
    assertSafeSegment('key', key)
    const place = { tenant: header.tenant, suite: header.suite, key }
    const headerLine = encodeHeader(place, { ...header, leg })
    assertJournalHeaderWithinBound({ ...header, leg }, headerLine.length)
    const headerText = readable(place, headerLine, `the header of leg ${leg} of run ${key}`)
    const declaredText = readable(place, encodeDeclared(place, declared), `the declared cases of run ${key}`)
    try {
      await this.db.query(
        'opening a journal leg',
        `INSERT INTO digline_journal_legs (tenant, suite, key, leg, header_line, declared_line, lease_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000))`,
        [place.tenant, place.suite, key, leg, headerText, declaredText, this.hooks.leaseTtlMs],
      )
    } catch (error) {
      if (sqlstateOf(error) === '23505') {
        throw new JournalLegExistsError(
          `refused to open leg ${leg} of run ${key} (suite ${place.suite}): another process is resuming run ${key} (leg ${leg} exists in the team store)`,
          `wait for that process to finish, or run \`digline pending\` to see run ${key} and its legs`,
          ['leg'],
        )
      }
      throw await this.hooks.removedOr(place, 'open a journal leg of', error)
    }
    const opened = new PgJournalLeg(this.db, this, this.hooks, place, leg)
    this.open.add(opened)
    return opened
  }

  async pending(tenant: string, suite: string): Promise<Pending[]> {
    return this.read(tenant, suite, undefined, false)
  }

  async pendingCases(tenant: string, suite: string): Promise<PendingCases[]> {
    return (await this.fold(tenant, suite, undefined, false, true)).map(({ planner, refusal, ...base }) => planner.pendingCases(base, refusal))
  }

  async dropPending(tenant: string, suite: string, key: string): Promise<void> {
    assertSafeSegment('key', key)
    const [pending] = await this.read(tenant, suite, key, true)
    if (pending === undefined) return
    if (!pending.finished) {
      throw new RunNotFoundError(
        `refused to remove the journal of run ${key} (suite ${suite}): its run document is not in the team store, so the journal holds the only copy of its judged cases`,
        `digline run --resume ${key} --suite ${suite}`,
        ['key'],
      )
    }
    await this.removeLegs({ tenant, suite, key }, 'finish')
  }

  /** Removes every leg of a run whose document is filed; refuses (removed, or no document) otherwise. */
  async removeLegs(place: JournalPlace, doing: string): Promise<void> {
    const { rows } = await this.db.query(
      'removing the journal of a finished run',
      `WITH gone AS (DELETE FROM digline_journal_legs l WHERE l.tenant = $1 AND l.suite = $2 AND l.key = $3
         AND EXISTS (SELECT 1 FROM digline_runs r WHERE r.tenant = $1 AND r.suite = $2 AND r.key = $3) RETURNING 1)
       SELECT (SELECT count(*) FROM gone) AS removed, EXISTS (SELECT 1 FROM digline_runs r WHERE r.tenant = $1 AND r.suite = $2 AND r.key = $3) AS filed`,
      [place.tenant, place.suite, place.key],
    )
    if (rows[0]?.filed === true) return
    const refusal = await this.hooks.removedOr(place, doing, undefined)
    if (refusal !== undefined) throw refusal
    throw new RunNotFoundError(
      `refused to remove the journal of run ${place.key} (suite ${place.suite}): its run document is not in the team store`,
      `digline run --resume ${place.key} --suite ${place.suite}`,
      ['key'],
    )
  }

  async listSuites(tenant: string): Promise<string[]> {
    assertSafeSegment('tenant', tenant)
    const { rows } = await this.db.query(
      'listing the suites of a tenant',
      `SELECT suite FROM digline_runs WHERE tenant = $1 UNION SELECT suite FROM digline_journal_legs WHERE tenant = $1 ORDER BY 1`,
      [tenant],
    )
    return rows.map((r) => String(r.suite))
  }

  /** The journals of a suite (or of one key), folded leg by leg; `strict` throws a refusal instead of reporting it. */
  private async read(tenant: string, suite: string, onlyKey: string | undefined, strict: boolean): Promise<Pending[]> {
    return (await this.fold(tenant, suite, onlyKey, strict, false)).map(({ planner, refusal, ...base }) => planner.pending(base, refusal))
  }

  private async fold(tenant: string, suite: string, onlyKey: string | undefined, strict: boolean, casesOnly: boolean) {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    const params = onlyKey === undefined ? [tenant, suite] : [tenant, suite, onlyKey]
    const keyFilter = onlyKey === undefined ? '' : ' AND key = $3'
    // One snapshot for legs, records and documents: a run completing meanwhile is seen whole or not at all.
    const { legs, records, filed } = await this.db.transaction('reading the journal', async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const legs = await client.query(
        `SELECT key, leg, header_line, declared_line, lease_expires_at > clock_timestamp() AS fresh FROM digline_journal_legs WHERE tenant = $1 AND suite = $2${keyFilter} ORDER BY key, leg`,
        params,
      )
      const records = await client.query(`SELECT key, leg, line FROM digline_journal_records WHERE tenant = $1 AND suite = $2${keyFilter} ORDER BY key, leg, seq`, params)
      const filed = await client.query(
        `SELECT r.key FROM digline_runs r WHERE r.tenant = $1 AND r.suite = $2 AND r.key IN (SELECT key FROM digline_journal_legs WHERE tenant = $1 AND suite = $2${keyFilter})`,
        params,
      )
      return { legs: legs.rows, records: records.rows, filed: new Set(filed.rows.map((r) => String(r.key))) }
    })
    const linesOf = new Map<string, string[]>()
    for (const r of records) {
      const id = `${String(r.key)}\n${String(r.leg)}`
      const lines = linesOf.get(id) ?? []
      lines.push(String(r.line))
      linesOf.set(id, lines)
    }
    const byKey = new Map<string, typeof legs>()
    for (const row of legs) byKey.set(String(row.key), [...(byKey.get(String(row.key)) ?? []), row])
    const out = []
    for (const [key, rows] of byKey) {
      const place = { tenant, suite, key }
      const planner = new JournalPlanner(place, () => `remove the run with \`digline delete --suite ${suite} --run ${key}\``, casesOnly)
      let refusal: DiglineErrorData | undefined
      try {
        planner.addLegs(
          rows.map((row) => {
            const leg = Number(row.leg)
            const lines = [String(row.header_line), String(row.declared_line), ...(linesOf.get(`${key}\n${leg}`) ?? [])]
            return { leg, file: legLocation(this.hooks, place, leg), bytes: Buffer.from(`${lines.join('\n')}\n`, 'utf8') }
          }),
        )
      } catch (error) {
        if (strict || !isDiglineError(error)) throw error
        refusal = error.toData()
      }
      const fresh = new Map(rows.map((row) => [Number(row.leg), row.fresh === true]))
      const leases = planner.leases.map((l) => ({ ...l, live: pgLeaseHolds(l.lease, fresh.get(l.leg) ?? false) }))
      out.push({ ...place, header: planner.header, legs: rows.map((row) => Number(row.leg)), leases, finished: filed.has(key), planner, refusal })
    }
    return out
  }
}

/** One open leg. Its appends are committed in the order they were called, several to one INSERT when they come at once. */
class PgJournalLeg implements Journal {
  private seq = 0
  private lastObserved: Observed | undefined
  private failure: StoreWriteError | undefined
  private tail: Promise<unknown> = Promise.resolve()
  private queue: { caseId: string; lines: string[]; resolve: () => void; reject: (error: unknown) => void }[] = []
  private flushing = false
  /** An append came while the queue was being sent: a batch waits for the end of its turn (ADR 0557). */
  private overlapping = false
  private idle: Promise<void> = Promise.resolve()
  private heartbeat: NodeJS.Timeout | undefined

  constructor(
    private readonly db: PgConnection,
    private readonly owner: PgJournal,
    private readonly hooks: PgJournalHooks,
    private readonly place: JournalPlace,
    readonly leg: number,
  ) {
    const every = Math.max(50, Math.floor(hooks.leaseTtlMs / 3))
    this.heartbeat = setInterval(() => void this.renew(), every)
    this.heartbeat.unref()
  }

  get key(): string {
    return this.place.key
  }

  private renew(): Promise<void> {
    return this.db
      .query(
        'renewing a journal lease',
        `UPDATE digline_journal_legs SET lease_expires_at = now() + make_interval(secs => $5::double precision / 1000) WHERE tenant = $1 AND suite = $2 AND key = $3 AND leg = $4`,
        [this.place.tenant, this.place.suite, this.place.key, this.leg, this.hooks.leaseTtlMs],
      )
      .then(
        () => undefined,
        // A missed heartbeat is retried at the next beat; the lease only expires if they all fail.
        () => undefined,
      )
  }

  stopHeartbeat(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat)
    this.heartbeat = undefined
    this.owner.open.delete(this)
  }

  /**
   * Queues the case's records and resolves once they are committed. Appends that come while an
   * INSERT is in flight (other slots of the run), or from then on in the same turn of the event loop,
   * go together in one: a group commit, in the order they were called, so what is committed is
   * always a prefix of what was appended.
   */
  append({ result, cause, observed }: CaseProgress): Promise<void> {
    if (this.failure !== undefined) {
      return Promise.reject(
        new StoreWriteError(
          `refused to append case ${result.case_id} to ${legLocation(this.hooks, this.place, this.leg)}: an earlier append failed, and the leg takes no more records`,
          this.failure.next,
          this.failure.errno,
        ),
      )
    }
    if (this.heartbeat === undefined) return Promise.reject(new Error(`${legLocation(this.hooks, this.place, this.leg)} is closed; case ${result.case_id} was not journaled`))
    const changed = this.lastObserved === undefined || !sameObserved(this.lastObserved, observed)
    const lines: string[] = []
    try {
      if (changed) lines.push(lineText(encodeObserved(this.place, observed)))
      lines.push(lineText(encodeCase(this.place, result, cause)))
    } catch (error) {
      return Promise.reject(error as Error)
    }
    if (changed) this.lastObserved = heldObserved(observed)
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ caseId: result.case_id, lines, resolve, reject })
      if (this.flushing) this.overlapping = true
      else {
        this.flushing = true
        this.idle = this.flush()
      }
    })
  }

  /**
   * Sends the queue until it is empty, each batch (once appends have overlapped) at the end of the
   * turn of the event loop that queued its first record; `flushing` turns false in the same step
   * that finds it empty.
   */
  private async flush(): Promise<void> {
    for (;;) {
      if (this.overlapping) await endOfTurn()
      const batch = this.queue.splice(0, MAX_BATCH)
      if (batch.length === 0) {
        this.flushing = false
        return
      }
      if (this.failure !== undefined) {
        for (const entry of batch) entry.reject(this.failure)
        continue
      }
      const lines = batch.flatMap((entry) => entry.lines)
      try {
        await this.insert(this.seq + 1, lines)
        this.seq += lines.length
        for (const entry of batch) entry.resolve()
      } catch (error) {
        const refusal = await this.hooks.removedOr(this.place, 'journal a case of', error).catch((e: unknown) => e)
        if (isDiglineError(refusal) && refusal.exitCode === 64) {
          this.failure = new StoreWriteError(refusal.message.split('\n')[0]!, refusal.next, 'removed')
          for (const entry of batch) entry.reject(refusal)
          continue
        }
        const why = isDiglineError(refusal) ? refusal.message.split('\n')[0]! : String(refusal)
        const next = `resume the run with \`digline run --resume ${this.place.key}\` once the team store is reachable`
        this.failure = new StoreWriteError(`digline could not journal a case in ${legLocation(this.hooks, this.place, this.leg)}: ${why}`, next, sqlstateOf(error))
        for (const entry of batch) {
          entry.reject(
            new StoreWriteError(
              `digline could not journal case ${entry.caseId} in ${legLocation(this.hooks, this.place, this.leg)}: ${why}; every earlier record of the leg is committed, and the leg takes no more records`,
              next,
              sqlstateOf(error),
            ),
          )
        }
      }
    }
  }

  complete(): Promise<void> {
    return this.serialized(async () => {
      await this.drained()
      this.stopHeartbeat()
      await this.owner.removeLegs(this.place, 'finish')
    })
  }

  close(): Promise<void> {
    return this.serialized(async () => {
      await this.drained()
      if (this.heartbeat === undefined) return
      this.stopHeartbeat()
      // The lease ends now: the run is stopped, and any process may resume it at once.
      await this.db
        .query('releasing a journal lease', `UPDATE digline_journal_legs SET lease_expires_at = now() WHERE tenant = $1 AND suite = $2 AND key = $3 AND leg = $4`, [
          this.place.tenant,
          this.place.suite,
          this.place.key,
          this.leg,
        ])
        .catch(() => undefined)
    })
  }

  /** Waits until every queued append has been committed or refused. */
  private async drained(): Promise<void> {
    while (this.flushing) await this.idle
  }

  private serialized(step: () => Promise<void>): Promise<void> {
    const run = this.tail.then(step)
    this.tail = run.catch(() => undefined)
    return run
  }

  /**
   * One INSERT of the records, committed on its own. A connection lost mid-statement leaves its fate
   * unknown: the records are then looked up by number, and inserted again only if they are not there,
   * so a record is never lost and never doubled. The other pooled connections may have been lost with
   * it (a restart ends them all), so the look-up is tried again, on whichever connection the pool
   * gives, for a few seconds before the append fails by name.
   */
  private async insert(first: number, lines: readonly string[]): Promise<void> {
    const { tenant, suite, key } = this.place
    const params: unknown[] = [tenant, suite, key, this.leg]
    lines.forEach((line, i) => params.push(first + i, line))
    const statement = insertOf(lines.length, params)
    try {
      await this.db.query('journaling a case', statement, params)
      return
    } catch (error) {
      if (!lostConnection(error)) throw error
    }
    for (let attempt = 0; ; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, RECOVERY_BACKOFF_MS[attempt]))
      try {
        await this.recover(first, lines, statement, params)
        return
      } catch (error) {
        if (!lostConnection(error) || attempt + 1 >= RECOVERY_BACKOFF_MS.length) throw error
      }
    }
  }

  /** After a lost connection: the records if they landed, or the INSERT again if they did not. */
  private async recover(first: number, lines: readonly string[], statement: string | PgNamedStatement, params: readonly unknown[]): Promise<void> {
    const { tenant, suite, key } = this.place
    const { rows } = await this.db.query(
      'checking a journal append after a lost connection',
      `SELECT seq, line FROM digline_journal_records WHERE tenant = $1 AND suite = $2 AND key = $3 AND leg = $4 AND seq >= $5 ORDER BY seq`,
      [tenant, suite, key, this.leg, first],
    )
    if (rows.length === 0) {
      await this.db.query('journaling a case again after a lost connection', statement, params)
      return
    }
    const landed = rows.map((r) => String(r.line))
    if (landed.length !== lines.length || landed.some((line, i) => line !== lines[i])) {
      throw new StoreWriteError(
        `${legLocation(this.hooks, this.place, this.leg)} holds other records at numbers ${first}… than the ones this process sent`,
        `run \`digline pending\` to see the journal`,
        undefined,
      )
    }
  }
}
