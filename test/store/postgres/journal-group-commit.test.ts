// Appends that come at once (the slots of one run) are committed together, in the order they were
// called: every one resolves only once its record is in the database, and `close()` waits for the
// queue. A record of a removed run is refused by name, with the run's own refusal.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { RunRemovedError } from '../../../src/store/errors.js'
import { PostgresStore } from '../../../src/store/postgres/store.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js'
import { inOneTurn, journalHeader, judged, OBSERVED_1, OBSERVED_2, progress } from '../journal-fixtures.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('group_commit')
})
afterAll(async () => {
  await db?.drop()
})

test('120 appends called at once all resolve committed, in the order called, with the observed identities where they changed', async () => {
  await db.truncate()
  const store = new PostgresStore({ url: db.url })
  try {
    const journal = await store.openJournal(journalHeader(), 1)
    const records = Array.from({ length: 120 }, (_, i) => progress(judged(i), i < 60 ? OBSERVED_1 : OBSERVED_2, i))
    const appended: number[] = []
    await Promise.all(records.map((record, i) => journal.append(record).then(() => appended.push(i))))
    expect(appended).toEqual(records.map((_, i) => i))
    const { rows } = await db.sql('SELECT count(*)::int AS n FROM digline_journal_records')
    expect(rows[0].n).toBe(122)
    const [pending] = await store.pending('acme', 'capitals')
    expect([...pending!.done.values()]).toEqual(records.map((r) => r.result))
    expect(pending!.observed).toEqual(OBSERVED_2)
    await journal.close()
  } finally {
    await store.end()
  }
})

test('once appends have overlapped, appends made from separate callbacks in one turn of the event loop are committed in one transaction', async () => {
  await db.truncate()
  const store = new PostgresStore({ url: db.url })
  // Rows inserted by one transaction carry its id in xmin.
  const transactions = async (): Promise<number> => {
    const { rows } = await db.sql('SELECT count(DISTINCT xmin::text)::int AS n FROM digline_journal_records WHERE line LIKE \'%"kind":"case"%\'')
    return rows[0].n as number
  }
  try {
    const journal = await store.openJournal(journalHeader(), 1)
    await Promise.all([8, 9].map((i) => journal.append(progress(judged(i), OBSERVED_1, i))))
    const before = await transactions()
    const appended = await inOneTurn(8, (i) => journal.append(progress(judged(i), OBSERVED_1, i)))
    await Promise.all(appended)
    await journal.close()
    expect(await transactions()).toBe(before + 1)
    expect((await store.pending('acme', 'capitals'))[0]!.done.size).toBe(10)
  } finally {
    await store.end()
  }
})

test('close() waits for appends still queued; an append to a run removed meanwhile is refused by name', async () => {
  await db.truncate()
  const store = new PostgresStore({ url: db.url })
  const other = new PostgresStore({ url: db.url })
  try {
    const journal = await store.openJournal(journalHeader(), 1)
    const queued = Array.from({ length: 10 }, (_, i) => journal.append(progress(judged(i), OBSERVED_1, i)))
    await journal.close()
    await Promise.all(queued)
    expect([...(await other.pending('acme', 'capitals'))[0]!.done.keys()]).toHaveLength(10)

    const late = await store.openJournal(journalHeader(), 2)
    await other.deleteRun('acme', 'capitals', keyOf(makeRun()))
    const error = await late.append(progress(judged(11), OBSERVED_1, 11)).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RunRemovedError)
    const { rows } = await db.sql('SELECT count(*)::int AS n FROM digline_journal_records')
    expect(rows[0].n).toBe(0)
  } finally {
    await store.end()
    await other.end()
  }
})
