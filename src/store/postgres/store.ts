// The team store: the Store contract on PostgreSQL (SPEC §10, docs/team-store.md). Tenants share one
// database and every statement names its tenant. A run's header and aggregates are columns, so a
// listing never reads results; the document is kept as the bytes the file store would write.
import type { BaselineDocument, RegisterEntry } from '../../document/baseline.js'
import { HEADER_KEYS, type RunDocument } from '../../document/schema.js'
import { serializeRun } from '../../document/serialize.js'
import { checkRunToWrite } from '../run-to-write.js'
import { closable } from '../closable.js'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { RunNotFoundError } from '../errors.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { createdAtNow, keyFor } from '../../suite/keys.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import type { ListedRun, PromotionRequest, PromotionResult, RunListing, RunScan, Store, StoredRun, SuiteRetirement } from '../contract.js'
import { assertDocumentHeaderWithinBound } from '../header-bounds.js'
import type { Journal, JournalOpening, Pending, PendingCases } from '../journal.js'
import type { PendingFollower } from '../pending-follower.js'
import { removalRecordSchema, runRemovedError, type Removal, type RemovalNotice, type RunRef } from '../removal.js'
import { assertFiledUnder, ownKeyOf, parseJsonText, validAggregates, validateDocument, validateHeader } from '../run-checks.js'
import { PgBaselines } from './baselines.js'
import { PgCache } from './cache.js'
import { PgConnection, sqlstateOf, type PgQueryable } from './connection.js'
import { PgDelete } from './delete.js'
import { PgJournal, type PgJournalHooks } from './journal.js'
import { PgJournalFollower } from './journal-follower.js'
import { REMOVED_SQLSTATE } from './schema.js'
import type { CacheEntry } from '../../suite/cache-key.js'
import { PgReviews } from './reviews.js'
import type { ReviewRecord } from '../review.js'
import type { StoredReview } from '../contract.js'
import type { ToolRecording } from '../../suite/tool-replay.js'
import { PgToolRecordings } from './tool-recordings.js'

/** How long a journal leg's lease holds without a heartbeat, unless the store is told otherwise. */
export const DEFAULT_LEASE_TTL_MS = 30_000

export interface PostgresStoreOptions {
  /** A postgres:// or postgresql:// URL; PG* variables fill in what it leaves out. */
  url: string
  /** How long a leg's lease holds without a heartbeat (the heartbeat beats every third of it). */
  leaseTtlMs?: number
}

export class PostgresStore implements Store {
  private readonly db: PgConnection
  private readonly journal: PgJournal
  private readonly journalHooks: PgJournalHooks
  private readonly baselines: PgBaselines
  private readonly deletes: PgDelete
  private readonly cache: PgCache
  private readonly reviews: PgReviews
  private readonly tools: PgToolRecordings

  constructor(options: PostgresStoreOptions) {
    this.db = new PgConnection(options.url)
    this.journalHooks = {
      removedOr: (place, doing, error) => this.removedOr(place, doing, error),
      locationOf: (place) => this.locationOf(place),
      leaseTtlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    }
    this.journal = new PgJournal(this.db, this.journalHooks)
    this.baselines = new PgBaselines(this.db, {
      removedRefusal: (db, ref, doing) => this.removedRefusal(db, ref, doing),
      removedOr: (ref, doing, error) => this.removedOr(ref, doing, error),
    })
    this.cache = new PgCache(this.db)
    this.reviews = new PgReviews(this.db, { removedOr: (ref, doing, error) => this.removedOr(ref, doing, error), where: this.db.where })
    this.tools = new PgToolRecordings(this.db)
    this.deletes = new PgDelete(this.db, (tenant, suite) => this.baselines.baselineLocation(tenant, suite))
    return closable(this, () => `the team store ${this.db.where}`)
  }

  /** For messages: the server, with no credentials. */
  get where(): string {
    return this.db.where
  }

  /** Connects and migrates now (the store otherwise does so on first use). */
  async ready(): Promise<void> {
    await this.db.ready()
  }

  /** Stops the heartbeats of the legs still open and ends the connection pool (idempotent, ADR 0160). */
  close(): Promise<void> {
    for (const leg of [...this.journal.open]) leg.stopHeartbeat()
    return this.db.end()
  }

  /** close(), by its older name (tests and benchmarks); closable() hands out the same idempotent close for both. */
  end(): Promise<void> {
    return this.close()
  }

  private locationOf(ref: RunRef): string {
    return `run ${ref.key} of suite ${ref.suite} (tenant ${ref.tenant}) in the team store ${this.db.where}`
  }

  // ── removals ──────────────────────────────────────────────────────────────────────────────────

  async removalOf(tenant: string, suite: string, key: string): Promise<RemovalNotice | undefined> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    return this.noticeIn(this.db, { tenant, suite, key })
  }

  private async noticeIn(db: PgQueryable | PgConnection, ref: RunRef): Promise<RemovalNotice | undefined> {
    const sql = 'SELECT record FROM digline_removals WHERE tenant = $1 AND suite = $2 AND key = $3'
    const params = [ref.tenant, ref.suite, ref.key]
    const { rows } = db instanceof PgConnection ? await db.query('reading a removal record', sql, params) : await db.query(sql, params)
    if (rows[0] === undefined) return undefined
    const location = `the removal record of ${this.locationOf(ref)}`
    try {
      const parsed = removalRecordSchema.safeParse(JSON.parse(String(rows[0].record)))
      return { location, record: parsed.success ? parsed.data : undefined }
    } catch {
      return { location, record: undefined }
    }
  }

  private async removedRefusal(db: PgQueryable, ref: RunRef, doing: string): Promise<Error | undefined> {
    const notice = await this.noticeIn(db, ref)
    return notice === undefined ? undefined : runRemovedError(ref, notice, doing)
  }

  /**
   * The refusal for a removed key when the database refused a write of it (or a leg vanished under
   * its writer, or `error` is undefined and the key is removed); otherwise the error as it was.
   */
  private async removedOr(ref: RunRef, doing: string, error: unknown): Promise<unknown> {
    const code = sqlstateOf(error)
    if (error !== undefined && code !== REMOVED_SQLSTATE && code !== '23503') return error
    let named = ref
    const detail = (error as { detail?: unknown } | undefined)?.detail
    if (code === REMOVED_SQLSTATE && typeof detail === 'string' && detail.includes('/')) {
      const [suite, key] = detail.split('/') as [string, string]
      named = { tenant: ref.tenant, suite, key }
    }
    const notice = await this.noticeIn(this.db, named)
    if (notice === undefined) return error
    return runRemovedError(named, notice, named === ref ? doing : 'file a replay of')
  }

  // ── runs ──────────────────────────────────────────────────────────────────────────────────────

  async writeRun(doc: RunDocument): Promise<StoredRun> {
    const { head: valid, results } = checkRunToWrite(doc, `a run document of suite ${JSON.stringify((doc as { suite?: unknown } | undefined)?.suite)}`)
    const { tenant, suite } = valid
    assertDocumentHeaderWithinBound(valid)
    const key = keyFor(valid.created_at, valid.config_hash)
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    const ref = { tenant, suite, key }
    const header: Record<string, unknown> = {}
    for (const field of HEADER_KEYS) if (valid[field] !== undefined) header[field] = valid[field]
    const parent = valid.rejudged_from === undefined || !isSafeSegment(valid.rejudged_from) ? null : valid.rejudged_from
    try {
      await this.db.query(
        'writing a run document',
        `INSERT INTO digline_runs (tenant, suite, key, created_at, rejudged_from, rejudged_from_suite, header, aggregates, document)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (tenant, suite, key) DO UPDATE SET created_at = EXCLUDED.created_at, rejudged_from = EXCLUDED.rejudged_from,
           rejudged_from_suite = EXCLUDED.rejudged_from_suite, header = EXCLUDED.header, aggregates = EXCLUDED.aggregates, document = EXCLUDED.document`,
        [
          tenant,
          suite,
          key,
          valid.created_at,
          parent,
          parent === null ? null : (valid.rejudged_from_suite ?? null),
          JSON.stringify(header),
          JSON.stringify(valid.aggregates),
          serializeRun({ ...valid, results }),
        ],
      )
    } catch (error) {
      throw await this.removedOr(ref, 'write', error)
    }
    return { tenant, suite, key, location: this.locationOf(ref) }
  }

  async readRun(tenant: string, suite: string, key: string): Promise<RunDocument> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    const ref = { tenant, suite, key }
    const { rows } = await this.db.query('reading a run document', 'SELECT document FROM digline_runs WHERE tenant = $1 AND suite = $2 AND key = $3', [tenant, suite, key])
    if (rows[0] === undefined) {
      const notice = await this.noticeIn(this.db, ref)
      if (notice !== undefined) throw runRemovedError(ref, notice, 'read')
      throw new RunNotFoundError(`refused to read run ${key} of suite ${suite} (tenant ${tenant}): there is no run under that key`, `digline list --suite ${suite}`, ['key'])
    }
    const where = this.locationOf(ref)
    const doc = validateDocument(parseJsonText(String(rows[0].document), where), where)
    assertFiledUnder(doc, { tenant, suite, fileKey: key, file: where })
    return doc
  }

  async listRuns(tenant: string, suite: string): Promise<RunListing> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    const { rows } = await this.db.query('listing runs', 'SELECT key, header, aggregates FROM digline_runs WHERE tenant = $1 AND suite = $2 ORDER BY key', [tenant, suite])
    const listed: ListedRun[] = rows.map((row) => {
      const key = String(row.key)
      const where = this.locationOf({ tenant, suite, key })
      try {
        const header = validateHeader(parseJsonText(String(row.header), where), where)
        assertFiledUnder(header, { tenant, suite, fileKey: key, file: where })
        const aggregates = validAggregates(JSON.parse(String(row.aggregates)))
        return aggregates !== undefined ? { key, header, aggregates } : { key, header }
      } catch (error) {
        return { key: isSafeSegment(key) ? key : undefined, refusal: refusalData(error) }
      }
    })
    return { tenant, suite, runs: [...listed.filter((r) => r.refusal === undefined), ...listed.filter((r) => r.refusal !== undefined)] }
  }

  async scanRuns(tenant: string, suite: string): Promise<RunScan> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    const { rows } = await this.db.query('reading runs', 'SELECT key, document FROM digline_runs WHERE tenant = $1 AND suite = $2 ORDER BY key', [tenant, suite])
    const runs: RunDocument[] = []
    const refused: RunScan['refused'] = []
    for (const row of rows) {
      const key = String(row.key)
      const where = this.locationOf({ tenant, suite, key })
      try {
        const doc = validateDocument(parseJsonText(String(row.document), where), where)
        assertFiledUnder(doc, { tenant, suite, fileKey: key, file: where })
        runs.push(doc)
      } catch (error) {
        refused.push({ key: isSafeSegment(key) ? key : undefined, refusal: refusalData(error) })
      }
    }
    runs.sort((a, b) => compareText(ownKeyOf(a), ownKeyOf(b)))
    return { tenant, suite, runs, refused }
  }

  async latestKey(tenant: string, suite: string): Promise<string | undefined> {
    const { runs } = await this.listRuns(tenant, suite)
    return runs.filter((run) => run.refusal === undefined).at(-1)?.key
  }

  async deleteRun(tenant: string, suite: string, key: string): Promise<Removal> {
    const removal = await this.deletes.deleteRun(tenant, suite, key)
    // After the runs: a delete stopped in between is finished by calling it again, which forgets again.
    for (const run of [removal.run, ...removal.replays]) {
      await this.cache.forgetRunAnswers(tenant, run.ref.suite, run.ref.key)
      await this.tools.forgetRunRecordings(tenant, run.ref.suite, run.ref.key)
    }
    return removal
  }

  // ── journal ───────────────────────────────────────────────────────────────────────────────────

  openJournal(opening: JournalOpening, leg: number): Promise<Journal> {
    return this.journal.openJournal(opening, leg)
  }
  pending(tenant: string, suite: string): Promise<Pending[]> {
    return this.journal.pending(tenant, suite)
  }

  pendingCases(tenant: string, suite: string): Promise<PendingCases[]> {
    return this.journal.pendingCases(tenant, suite)
  }

  followPending(tenant: string, suite: string): PendingFollower {
    return new PgJournalFollower(this.db, this.journalHooks, tenant, suite)
  }
  dropPending(tenant: string, suite: string, key: string): Promise<void> {
    return this.journal.dropPending(tenant, suite, key)
  }
  listSuites(tenant: string): Promise<string[]> {
    return this.journal.listSuites(tenant)
  }

  // ── baselines ─────────────────────────────────────────────────────────────────────────────────

  readBaseline(tenant: string, suite: string): Promise<BaselineDocument | undefined> {
    return this.baselines.readBaseline(tenant, suite)
  }
  promote(request: PromotionRequest): Promise<PromotionResult> {
    return this.baselines.promote(request)
  }
  readRegister(tenant: string): Promise<RegisterEntry[]> {
    return this.baselines.readRegister(tenant)
  }

  // ── the suite lifecycle ───────────────────────────────────────────────────────────────────────

  async retireSuite(tenant: string, suite: string): Promise<SuiteRetirement> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    const { rows } = await this.db.query(
      'retiring a suite',
      `WITH put AS (INSERT INTO digline_retired_suites (tenant, suite, retired_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING retired_at)
       SELECT retired_at FROM put UNION ALL SELECT retired_at FROM digline_retired_suites WHERE tenant = $1 AND suite = $2`,
      [tenant, suite, createdAtNow()],
    )
    // A retirement racing this one and committed after this statement's snapshot: read it now.
    if (rows[0] === undefined) return (await this.retirementOf(tenant, suite))!
    return { suite, retired_at: String(rows[0].retired_at) }
  }

  async retirementOf(tenant: string, suite: string): Promise<SuiteRetirement | undefined> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    const { rows } = await this.db.query('reading a retirement', 'SELECT retired_at FROM digline_retired_suites WHERE tenant = $1 AND suite = $2', [tenant, suite])
    return rows[0] === undefined ? undefined : { suite, retired_at: String(rows[0].retired_at) }
  }

  async retiredSuites(tenant: string): Promise<SuiteRetirement[]> {
    assertSafeSegment('tenant', tenant)
    const { rows } = await this.db.query('listing retired suites', 'SELECT suite, retired_at FROM digline_retired_suites WHERE tenant = $1 ORDER BY suite', [tenant])
    return rows.map((row) => ({ suite: String(row.suite), retired_at: String(row.retired_at) }))
  }
  // ── review records (a run's delete removes its labels: the foreign key cascades) ──────────────

  appendReview(review: ReviewRecord): Promise<StoredReview> {
    return this.reviews.appendReview(review)
  }
  listReviews(tenant: string, suite: string, key?: string): Promise<ReviewRecord[]> {
    return this.reviews.listReviews(tenant, suite, key)
  }

  // ── the response cache ────────────────────────────────────────────────────────────────────────

  cachedAnswer(tenant: string, suite: string, caseId: string, key: string): Promise<CacheEntry | undefined> {
    return this.cache.cachedAnswer(tenant, suite, caseId, key)
  }

  cacheAnswer(tenant: string, suite: string, entry: CacheEntry): Promise<void> {
    return this.cache.cacheAnswer(tenant, suite, entry)
  }

  cachedAnswersOf(tenant: string, suite: string, caseId: string): Promise<CacheEntry[]> {
    return this.cache.cachedAnswersOf(tenant, suite, caseId)
  }

  clearCache(tenant: string, suite?: string): Promise<number> {
    return this.cache.clearCache(tenant, suite)
  }
  forgetRunAnswers(tenant: string, suite: string, key: string): Promise<number> {
    return this.cache.forgetRunAnswers(tenant, suite, key)
  }

  toolRecording(tenant: string, suite: string, caseId: string, key: string): Promise<ToolRecording | undefined> {
    return this.tools.toolRecording(tenant, suite, caseId, key)
  }
  recordToolCall(tenant: string, suite: string, recording: ToolRecording): Promise<void> {
    return this.tools.recordToolCall(tenant, suite, recording)
  }
  toolRecordingsOf(tenant: string, suite: string, caseId: string): Promise<ToolRecording[]> {
    return this.tools.toolRecordingsOf(tenant, suite, caseId)
  }
  forgetRunRecordings(tenant: string, suite: string, key: string): Promise<number> {
    return this.tools.forgetRunRecordings(tenant, suite, key)
  }
}

function refusalData(error: unknown): DiglineErrorData {
  if (isDiglineError(error)) return error.toData()
  throw error
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
