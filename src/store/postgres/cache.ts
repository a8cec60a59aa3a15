// The response cache on PostgreSQL (SPEC §14): one row per entry, keyed by tenant, suite, case and
// cache key, with the run that asked for it (the delete of that run removes the row, SPEC §7). It is
// disposable, as on files: an entry that does not check out is a miss.
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { assertCacheKey, assertKeyOfItsParts, cacheKeyOf, type CacheEntry } from '../../suite/cache-key.js'
import type { PgConnection } from './connection.js'
import { cachedAnswerSchema } from '../../document/answer-shape.js'

/** The entry a row holds, when it is the entry its columns say; a miss otherwise. */
function entryOf(row: Record<string, unknown>, caseId: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(String(row.entry)) as CacheEntry
    if (entry.case_id !== caseId || entry.key !== row.key || cacheKeyOf(entry.case_id, entry.parts) !== entry.key) return undefined
    // the answer as the file cache reads it: the answer shape's cached fields, in their order
    const answer = cachedAnswerSchema.safeParse(entry.answer)
    return answer.success ? { ...entry, answer: answer.data as CacheEntry['answer'] } : undefined
  } catch {
    return undefined
  }
}

export class PgCache {
  constructor(private readonly db: PgConnection) {}

  async cachedAnswer(tenant: string, suite: string, caseId: string, key: string): Promise<CacheEntry | undefined> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('case', caseId)
    assertCacheKey(key)
    const { rows } = await this.db.query('reading a cached answer', 'SELECT key, entry FROM digline_cache WHERE tenant = $1 AND suite = $2 AND case_id = $3 AND key = $4', [
      tenant,
      suite,
      caseId,
      key,
    ])
    return rows[0] === undefined ? undefined : entryOf(rows[0], caseId)
  }

  async cacheAnswer(tenant: string, suite: string, entry: CacheEntry): Promise<void> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('case', entry.case_id)
    assertCacheKey(entry.key)
    assertKeyOfItsParts(entry)
    await this.db.query(
      'filing a cached answer',
      `INSERT INTO digline_cache (tenant, suite, case_id, key, cached_at, entry, run) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant, suite, case_id, key) DO UPDATE SET cached_at = EXCLUDED.cached_at, entry = EXCLUDED.entry, run = EXCLUDED.run`,
      [tenant, suite, entry.case_id, entry.key, entry.cached_at, JSON.stringify(entry), entry.run],
    )
  }

  async cachedAnswersOf(tenant: string, suite: string, caseId: string): Promise<CacheEntry[]> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('case', caseId)
    const { rows } = await this.db.query(
      "listing a case's cached answers",
      'SELECT key, entry FROM digline_cache WHERE tenant = $1 AND suite = $2 AND case_id = $3 ORDER BY cached_at DESC, key ASC',
      [tenant, suite, caseId],
    )
    return rows.flatMap((row) => entryOf(row, caseId) ?? [])
  }

  async forgetRunAnswers(tenant: string, suite: string, key: string): Promise<number> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    const { rowCount } = await this.db.query("forgetting a run's cached answers", 'DELETE FROM digline_cache WHERE tenant = $1 AND suite = $2 AND run = $3', [tenant, suite, key])
    return rowCount ?? 0
  }

  async clearCache(tenant: string, suite?: string): Promise<number> {
    assertSafeSegment('tenant', tenant)
    if (suite !== undefined) assertSafeSegment('suite', suite)
    const { rowCount } =
      suite === undefined
        ? await this.db.query('clearing the cache', 'DELETE FROM digline_cache WHERE tenant = $1', [tenant])
        : await this.db.query('clearing the cache', 'DELETE FROM digline_cache WHERE tenant = $1 AND suite = $2', [tenant, suite])
    return rowCount ?? 0
  }
}
