// Baselines and the register on PostgreSQL. A promotion is one transaction under the tenant's
// promotion lock: read the current baseline, compare, write the baseline and the register line. The
// baseline's trigger refuses a removed key whatever the client checked.
import type { z } from 'zod'
import { baselineDocumentSchema, registerEntrySchema, serializeBaseline, serializeRegisterEntry, type BaselineDocument, type RegisterEntry } from '../../document/baseline.js'
import { safeParseBaseline } from '../../document/fast-shape.js'
import { SCHEMA_VERSION } from '../../document/schema.js'
import { InternalError } from '../../errors/base.js'
import { UnknownSchemaVersionError, UnreadableBaselineError, UnreadableRegisterError } from '../errors.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { keyFor } from '../../suite/keys.js'
import type { PromotionRequest, PromotionResult } from '../contract.js'
import type { RunRef } from '../removal.js'
import { assertPromotionRequest, notCurrentBaseline } from '../promotion-refusal.js'
import type { PgConnection, PgQueryable } from './connection.js'

export interface PgBaselinesHooks {
  /** The refusal for a removed key, when it is removed (looked up in `db`, inside the transaction). */
  removedRefusal(db: PgQueryable, ref: RunRef, doing: string): Promise<Error | undefined>
  /** Maps a failed statement: a removed key's SQLSTATE becomes its refusal. */
  removedOr(ref: RunRef, doing: string, error: unknown): Promise<unknown>
}

function firstIssue(error: z.ZodError): { where: string; message: string; path: (string | number)[] } {
  const issue = error.issues[0]
  const path = (issue?.path ?? []).filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
  return { where: path.length === 0 ? '(the document)' : path.join('.'), message: issue?.message ?? 'invalid', path }
}

export class PgBaselines {
  constructor(
    private readonly db: PgConnection,
    private readonly hooks: PgBaselinesHooks,
  ) {}

  baselineLocation(tenant: string, suite: string): string {
    return `the baseline of suite ${suite} (tenant ${tenant}) in the team store ${this.db.where}`
  }

  registerLocation(tenant: string): string {
    return `the register of tenant ${tenant} in the team store ${this.db.where}`
  }

  async readBaseline(tenant: string, suite: string): Promise<BaselineDocument | undefined> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    const { rows } = await this.db.query('reading a baseline', 'SELECT document FROM digline_baselines WHERE tenant = $1 AND suite = $2', [tenant, suite])
    return rows[0] === undefined ? undefined : this.parseBaseline(tenant, suite, String(rows[0].document))
  }

  private parseBaseline(tenant: string, suite: string, text: string): BaselineDocument {
    const where = this.baselineLocation(tenant, suite)
    const unreadable = (why: string, path: (string | number)[] = []) =>
      new UnreadableBaselineError(`refused to read ${where}: ${why}`, 'promote a run again with `digline promote`', path)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw unreadable('it is not JSON')
    }
    const version = (value as { schema_version?: unknown } | null)?.schema_version
    if (typeof version === 'number' && version !== SCHEMA_VERSION) {
      throw new UnknownSchemaVersionError(
        `refused to read ${where}: its schema_version is ${version}, and this digline reads schema_version ${SCHEMA_VERSION}`,
        `upgrade digline to a version that reads schema_version ${version}`,
        ['schema_version'],
      )
    }
    const parsed = safeParseBaseline(value)
    if (!parsed.success) {
      const issue = firstIssue(parsed.error)
      throw unreadable(`it does not match the baseline schema at ${issue.where}: ${issue.message}`, issue.path)
    }
    const doc = parsed.data
    if (doc.promoted_from !== keyFor(doc.created_at, doc.config_hash)) throw unreadable('its promoted_from is not the key of the run it holds', ['promoted_from'])
    return doc
  }

  async promote(request: PromotionRequest): Promise<PromotionResult> {
    const { tenant, suite, expected, baseline, entry } = request
    assertPromotionRequest(request)
    const key = baseline.promoted_from
    const parsed = baselineDocumentSchema.safeParse(baseline)
    if (!parsed.success) {
      const issue = firstIssue(parsed.error)
      throw new InternalError(`digline built a baseline that does not match the baseline schema at ${issue.where}: ${issue.message}; nothing was written`, issue.path)
    }
    const ref = { tenant, suite, key }
    const where = { baselineLocation: this.baselineLocation(tenant, suite), registerLocation: this.registerLocation(tenant), committedByGit: false }
    const line = (e: RegisterEntry): string => serializeRegisterEntry(registerEntrySchema.parse(e)).replace(/\n$/, '')
    try {
      return await this.db.transaction('promoting a run', async (db): Promise<PromotionResult> => {
        // One promotion of a tenant at a time: the register's order is the order promotions landed.
        await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('digline-promote/' || $1, 0))`, [tenant])
        const removed = await this.hooks.removedRefusal(db, ref, 'promote')
        if (removed !== undefined) throw removed
        const { rows } = await db.query('SELECT document FROM digline_baselines WHERE tenant = $1 AND suite = $2', [tenant, suite])
        const current = rows[0] === undefined ? undefined : this.parseBaseline(tenant, suite, String(rows[0].document))
        if (current !== undefined && current.promoted_from === key) {
          const last = await db.query('SELECT key FROM digline_register WHERE tenant = $1 AND suite = $2 ORDER BY seq DESC LIMIT 1', [tenant, suite])
          if (last.rows[0]?.key === key) return { ...where, outcome: 'already', entry: undefined }
          const completing = { ...entry, promoted_at: current.promoted_at }
          await db.query('INSERT INTO digline_register (tenant, suite, key, entry) VALUES ($1, $2, $3, $4)', [tenant, suite, key, line(completing)])
          return { ...where, outcome: 'completed', entry: completing }
        }
        const currentKey = current?.promoted_from ?? null
        if (currentKey !== expected) throw notCurrentBaseline(suite, key, expected, current)
        await db.query(
          `INSERT INTO digline_baselines (tenant, suite, promoted_from, document) VALUES ($1, $2, $3, $4)
           ON CONFLICT (tenant, suite) DO UPDATE SET promoted_from = EXCLUDED.promoted_from, document = EXCLUDED.document`,
          [tenant, suite, key, serializeBaseline(parsed.data)],
        )
        await db.query('INSERT INTO digline_register (tenant, suite, key, entry) VALUES ($1, $2, $3, $4)', [tenant, suite, key, line(entry)])
        return { ...where, outcome: 'promoted', entry }
      })
    } catch (error) {
      throw await this.hooks.removedOr(ref, 'promote', error)
    }
  }

  async readRegister(tenant: string): Promise<RegisterEntry[]> {
    assertSafeSegment('tenant', tenant)
    const { rows } = await this.db.query('reading the register', 'SELECT entry FROM digline_register WHERE tenant = $1 ORDER BY seq', [tenant])
    return rows.map((row, i) => {
      const unreadable = (why: string) =>
        new UnreadableRegisterError(`refused to read ${this.registerLocation(tenant)}: entry ${i + 1} ${why}`, 'restore the register table from a backup of the team store')
      let value: unknown
      try {
        value = JSON.parse(String(row.entry))
      } catch {
        throw unreadable('is not JSON')
      }
      const parsed = registerEntrySchema.safeParse(value)
      if (!parsed.success) throw unreadable(`is not a register entry (${firstIssue(parsed.error).where}: ${firstIssue(parsed.error).message})`)
      return parsed.data
    })
  }
}
