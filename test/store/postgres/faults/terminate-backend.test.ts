// pg_terminate_backend of digline's connections while it appends to a journal leg. An operator (or a
// failover) ends every backend whose application_name is 'digline' at random moments, found through
// pg_stat_activity, while a writer appends 40 cases one by one. An append either returns (its record
// is committed exactly once: a lost connection is followed by a look-up and, only if the records are
// not there, a second INSERT) or fails by name, after which the leg takes nothing more and the writer
// does what a resume does: opens the next leg and appends the cases that are not journaled. In the
// end every case is journaled exactly once, with the result that was sent.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { CaseProgress } from '../../../../src/document/case-progress.js'
import { isDiglineError } from '../../../../src/errors/base.js'
import { seededRandom } from '../../../../src/stats/prng.js'
import type { Journal } from '../../../../src/store/journal.js'
import { APPLICATION_NAME } from '../../../../src/store/postgres/connection.js'
import { PostgresStore } from '../../../../src/store/postgres/store.js'
import { createTestDatabase, type TestDatabase } from '../../../helpers/postgres.js'
import { DECLARED, journalHeader, judged, KEY, OBSERVED_1, progress, SUITE, TENANT } from '../../journal-fixtures.js'
import pg from 'pg'

const RECORDS: CaseProgress[] = Array.from({ length: 40 }, (_, i) => progress(judged(i), OBSERVED_1, i))
const DECLARED_CASES = Object.keys(DECLARED.digests).length
const SEED = Number(process.env.DIGLINE_PG_TERMINATE_SEED ?? Date.now() % 100000)

let db: TestDatabase
let operator: pg.Client
beforeAll(async () => {
  db = await createTestDatabase('terminate')
  operator = new pg.Client({ connectionString: db.url, application_name: 'digline-test-operator' })
  await operator.connect()
})
afterAll(async () => {
  await operator?.end()
  await db?.drop()
})

/** Ends every digline backend of the test database at random moments while `armed()` says so; stop() returns the tally. */
function startTerminator(random: () => number, armed: () => boolean, hit: () => void = () => undefined): { stop(): Promise<{ terminated: number; hits: number }> } {
  const tally = { terminated: 0, hits: 0 }
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, random() * 15))
      if (!armed()) continue
      const { rows } = await operator.query(
        'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()',
        [APPLICATION_NAME],
      )
      const n = (rows[0] as { n: number }).n
      tally.terminated += n
      if (n > 0 && armed()) {
        tally.hits += 1
        hit()
      }
    }
  })()
  return {
    async stop() {
      stopped = true
      await loop
      return tally
    },
  }
}

/** Errors no caller could catch: a connection ended under a checked-out client that nobody listens to. */
const uncaught: unknown[] = []
const onUncaught = (error: unknown): void => {
  uncaught.push(error)
}
beforeAll(() => {
  process.on('uncaughtException', onUncaught)
})
beforeEach(async () => {
  uncaught.length = 0
  await db.truncate()
})
afterAll(() => {
  process.off('uncaughtException', onUncaught)
})

test('backends terminated while the store reads in a transaction: each read returns or fails by name, and nothing escapes to the process', { timeout: 180_000 }, async () => {
  const random = seededRandom(SEED + 1)
  const store = new PostgresStore({ url: db.url })
  await store.ready()
  await (await store.openJournal(journalHeader(), 1)).close()
  const outcomes = { read: 0, failed: 0 }
  let reading = false
  const terminator = startTerminator(random, () => reading)
  try {
    for (let i = 0; i < 150; i++) {
      reading = true
      const error = await store.pending(TENANT, SUITE).then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      reading = false
      if (error === undefined) outcomes.read += 1
      else {
        outcomes.failed += 1
        expect(error.name, error.message).toBe('TeamStoreUnreachableError')
        expect(error.message).toContain('next: ')
      }
    }
  } finally {
    reading = false
    const { terminated, hits } = await terminator.stop()
    await store.end()
    console.log(
      `terminate during reads: ${terminated} backends terminated (${hits} times while a read was under way); ${outcomes.read} reads returned, ${outcomes.failed} failed by name`,
    )
  }
  expect(outcomes.failed, 'the terminations hit reads under way').toBeGreaterThan(0)
  expect(uncaught.map(String)).toEqual([])
})

test('backends terminated mid-append: every case journaled exactly once, each failure named', { timeout: 180_000 }, async () => {
  console.log(`terminate seed ${SEED} (replay: DIGLINE_PG_TERMINATE_SEED=${SEED})`)
  const random = seededRandom(SEED)
  const store = new PostgresStore({ url: db.url })
  await store.ready()
  const tally = { appended: 0, failed: 0, legs: 1 }
  const failures: string[] = []
  let appending = false
  // Only appends are hit: the resume between legs runs later, in a real run, not under fire.
  const terminator = startTerminator(random, () => appending)
  try {
    let leg = 1
    let journal = await openWithRetry(store, leg)
    let todo = [...RECORDS]
    while (todo.length > 0) {
      appending = true
      const outcome = await journal.append(todo[0]!).then(
        () => undefined,
        (error: unknown) => error,
      )
      appending = false
      if (outcome === undefined) {
        tally.appended += 1
        todo = todo.slice(1)
        continue
      }
      tally.failed += 1
      expect(isDiglineError(outcome), String(outcome)).toBe(true)
      const named = outcome as Error
      expect(['StoreWriteError', 'TeamStoreUnreachableError']).toContain(named.name)
      expect(named.message).toContain('next: ')
      failures.push(named.message.split('\n')[0]!)
      // The leg takes nothing more once an append failed.
      const again = await journal.append(todo[0]!).then(
        () => undefined,
        (error: unknown) => error as Error,
      )
      expect(again?.message).toContain('the leg takes no more records')
      await journal.close()
      // What a resume does: the cases the journal holds are done; the others go into the next leg.
      const pending = await readPending(store)
      todo = RECORDS.filter((r) => !pending.has(r.result.case_id))
      leg += 1
      tally.legs += 1
      journal = await openWithRetry(store, leg)
    }
    await journal.close()
  } finally {
    appending = false
  }
  const { terminated, hits } = await terminator.stop()
  const done = await readPending(store)
  await store.end()
  console.log(
    `terminate during appends: ${terminated} backends terminated (${hits} times while an append was under way); ${tally.appended} appends returned, ${tally.failed} failed by name over ${tally.legs} legs; first failure: ${failures[0] ?? 'none'}`,
  )
  expect([...done.values()]).toEqual(RECORDS.map((r) => r.result))
  const { rows } = await db.sql(`SELECT count(*)::int AS n FROM digline_journal_records WHERE tenant = $1 AND suite = $2 AND key = $3 AND line LIKE '%"kind":"case"%'`, [
    TENANT,
    SUITE,
    KEY,
  ])
  expect(rows[0].n, 'case records in all legs: none doubled').toBe(RECORDS.length)
  expect(hits, 'the terminations hit appends under way').toBeGreaterThan(0)
  expect(uncaught.map(String)).toEqual([])
})

async function readPending(store: PostgresStore): Promise<Map<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const all = await store.pending(TENANT, SUITE)
      expect(all).toHaveLength(1)
      expect(all[0]!.refusal).toBeUndefined()
      return all[0]!.done
    } catch (error) {
      if (!isDiglineError(error) || error.name !== 'TeamStoreUnreachableError' || attempt > 50) throw error
    }
  }
}

async function openWithRetry(store: PostgresStore, leg: number): Promise<Journal> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await store.openJournal(journalHeader(), leg)
    } catch (error) {
      if (!isDiglineError(error) || error.name !== 'TeamStoreUnreachableError' || attempt > 50) throw error
    }
  }
}

test('one backend terminated in each append: the append is retried on a new connection and returns; every case journaled exactly once', { timeout: 180_000 }, async () => {
  const random = seededRandom(SEED + 2)
  const store = new PostgresStore({ url: db.url })
  await store.ready()
  // 40 appends, and more (up to the 200 cases the run declares) until a termination has hit one: on a
  // loaded machine the terminator can miss 40 short appends in a row.
  const records: CaseProgress[] = []
  const journal = await store.openJournal(journalHeader(), 1)
  let appending = false
  let hitThisAppend = false
  let hitAppends = 0
  const terminator = startTerminator(
    () => random() * 0.3,
    () => appending && !hitThisAppend,
    () => {
      hitThisAppend = true
    },
  )
  try {
    for (let i = 0; i < DECLARED_CASES && (i < 40 || hitAppends === 0); i++) {
      const record = progress(judged(i), OBSERVED_1, i)
      records.push(record)
      hitThisAppend = false
      appending = true
      await journal.append(record)
      appending = false
      if (hitThisAppend) hitAppends += 1
    }
    await journal.close()
  } finally {
    appending = false
  }
  const { terminated } = await terminator.stop()
  const done = await readPending(store)
  await store.end()
  console.log(`terminate once per append: ${terminated} backends terminated, ${hitAppends} of ${records.length} appends hit; every append returned`)
  expect([...done.values()]).toEqual(records.map((r) => r.result))
  const { rows } = await db.sql(`SELECT count(*)::int AS n FROM digline_journal_records WHERE line LIKE '%"kind":"case"%'`)
  expect(rows[0].n).toBe(records.length)
  expect(hitAppends, 'terminations hit appends under way').toBeGreaterThan(0)
  expect(uncaught.map(String)).toEqual([])
})
