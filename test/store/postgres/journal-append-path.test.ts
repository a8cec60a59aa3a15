// The append's path on the team store: its INSERT is a statement each connection prepares once (per
// record count), the records it writes without reading them back read back equal, and an observed
// record is written only where the identities changed.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CaseResult, Observed } from '../../../src/document/schema.js'
import { PgConnection } from '../../../src/store/postgres/connection.js'
import { PgJournal } from '../../../src/store/postgres/journal.js'
import { PostgresStore } from '../../../src/store/postgres/store.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js'
import { errored, journalHeader, judged, OBSERVED_1, progress } from '../journal-fixtures.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('append_path')
})
afterAll(async () => {
  await db?.drop()
})

test('the append INSERT is prepared once per connection and record count, then only bound and run', async () => {
  await db.truncate()
  const connection = new PgConnection(db.url)
  const journal = new PgJournal(connection, {
    removedOr: (_place, _doing, error) => Promise.resolve(error),
    locationOf: (place) => `run ${place.key}`,
    leaseTtlMs: 30_000,
  })
  try {
    const leg = await journal.openJournal(journalHeader(), 1)
    // One at a time, the pool hands every statement the same idle connection.
    for (let i = 0; i < 5; i++) await leg.append(progress(judged(i), OBSERVED_1, i))
    const { rows } = await connection.query('listing prepared statements', 'SELECT name, statement FROM pg_prepared_statements ORDER BY name')
    // The first append sent two records (the observed identities, then the case), the others one.
    expect(rows.map((r) => r.name)).toEqual(['digline_journal_append_1', 'digline_journal_append_2'])
    expect(String(rows[0]!.statement)).toBe('INSERT INTO digline_journal_records (tenant, suite, key, leg, seq, line) VALUES ($1, $2, $3, $4, $5, $6)')
    const { rows: records } = await connection.query('counting', 'SELECT seq FROM digline_journal_records ORDER BY seq')
    expect(records.map((r) => Number(r.seq))).toEqual([1, 2, 3, 4, 5, 6])
    await leg.close()
  } finally {
    for (const leg of [...journal.open]) leg.stopHeartbeat()
    await connection.end()
  }
})

test('records appended without a read-back read back equal: odd strings, unicode, big and small numbers, errors; observed only where it changed', async () => {
  await db.truncate()
  const store = new PostgresStore({ url: db.url })
  try {
    const journal = await store.openJournal(journalHeader(), 1)
    const odd = (index: number, reason: string, score: number): CaseResult => ({ ...judged(index), verdict: 'fail', score, passed_samples: 0, reason })
    const results: CaseResult[] = [
      odd(0, 'quote " backslash \\ tab \t newline \n nul \u0000 end', 0),
      odd(1, 'unicode: żółć 東京 🧭 \u2028 \u2029 \ud7ff', 0.1 + 0.2),
      odd(2, '{"kind":"case"} looks like a record', 5e-324),
      odd(3, ''.padEnd(5000, 'x'), 1 - Number.EPSILON),
      errored(4, 'target'),
      errored(5, 'mapper'),
      judged(6),
      judged(7),
    ]
    const observed: Observed[] = [
      OBSERVED_1,
      { target_model: 'geo-v1-2026-01', judge_models: { a: 'j-1', b: 'j-2' } },
      { target_model: 'geo-v1-2026-01', judge_models: { b: 'j-2', a: 'j-1' } },
      { target_model: 'geo-v1-2026-01', judge_models: { a: 'j-1', b: 'j-3' } },
      { target_model: null, judge_models: { a: 'j-1', b: 'j-3' } },
      { target_model: null, judge_models: { a: 'j-1', b: 'j-3' } },
      { target_model: null, judge_models: { a: 'j-1' } },
      { target_model: null, judge_models: { a: 'j-1', c: 'j-1' } },
    ]
    await Promise.all(results.map((result, i) => journal.append(progress(result, observed[i]!, i))))
    const [pending] = await store.pending('acme', 'capitals')
    expect(pending!.refusal).toBeUndefined()
    expect([...pending!.done.values()]).toEqual(results)
    expect(pending!.observed).toEqual({ target_model: null, judge_models: { a: 'j-1', c: 'j-1' } })
    const { rows } = await db.sql(`SELECT seq, line FROM digline_journal_records WHERE line LIKE '%"kind":"observed"%' ORDER BY seq`)
    // The same judges in another order are the same identities; every other change is a record.
    expect(rows.map((r: { line: string }) => JSON.parse(r.line.slice(9)).observed)).toEqual([
      OBSERVED_1,
      { target_model: 'geo-v1-2026-01', judge_models: { a: 'j-1', b: 'j-2' } },
      { target_model: 'geo-v1-2026-01', judge_models: { a: 'j-1', b: 'j-3' } },
      { target_model: null, judge_models: { a: 'j-1', b: 'j-3' } },
      { target_model: null, judge_models: { a: 'j-1' } },
      { target_model: null, judge_models: { a: 'j-1', c: 'j-1' } },
    ])
    await journal.close()
  } finally {
    await store.end()
  }
})
