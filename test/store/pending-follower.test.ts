// Following a live journal (the viewer's poll, docs/adr/0396): after the first poll, a poll reads
// only what was appended since the last one, on a real leg file (the process's own read count,
// /proc/self/io rchar, around the poll) and on a real PostgreSQL (the server's own count of the
// journal rows its scans touched, pg_stat_user_tables). What it folds equals a full read by
// Store.pending; a leg replaced or cut shorter is read again whole; a filed run's journal is dropped.
import { readFileSync, renameSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CaseResult } from '../../src/document/schema.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { PostgresStore } from '../../src/store/postgres/store.js'
import type { Journal, Pending } from '../../src/store/journal.js'
import { keyOf, makeRun } from '../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { journalHeader, OBSERVED_1, progress, SUITE, TENANT } from './journal-fixtures.js'

const CASES = 20_000
const FIRST = CASES - 30
const RESULTS: CaseResult[] = makeRun({ results: CASES }).results
const DECLARED = { samples: 1, digests: Object.fromEntries(RESULTS.map((r, i) => [r.case_id, `d${String(i).padStart(11, '0')}`])) }
const KEY = keyOf(makeRun())

let dir: string
let db: TestDatabase
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'digline-follow-'))
  db = await createTestDatabase('pending_follower')
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await db?.drop()
})

/** Appends cases [from, to) as the writer does: concurrent appends go out as group commits. */
async function append(leg: Journal, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += 2000) {
    const batch = RESULTS.slice(start, Math.min(to, start + 2000))
    await Promise.all(batch.map((r, i) => leg.append(progress(r, OBSERVED_1, start + i))))
  }
}

function rchar(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1])
}

function summary(pending: readonly Pending[]): unknown {
  return pending.map((p) => ({
    key: p.key,
    legs: p.legs,
    refusal: p.refusal?.name,
    declared: p.declared === undefined ? 0 : Object.keys(p.declared.digests).length,
    done: [...p.done.values()],
    finished: p.finished,
  }))
}

test(
  'file store: after the first poll, a poll reads only the bytes appended since; truncation and replacement are read again whole; a filed journal is dropped',
  { timeout: 300_000 },
  async () => {
    const store = new FileResultStore({ root: join(dir, '.digline') })
    const leg = await store.openJournal(journalHeader({ declared: DECLARED }), 1)
    await append(leg, 0, FIRST)
    const file = store.paths.journalLegFile(TENANT, SUITE, KEY, 1)
    const follower = store.followPending!(TENANT, SUITE)

    const first = await follower.poll()
    expect(first[0]!.done.size).toBe(FIRST)
    expect(follower.lastRead.bytes).toBe(statSync(file).size)

    for (let round = 0; round < 3; round++) {
      const before = statSync(file).size
      await append(leg, FIRST + round * 10, FIRST + round * 10 + 10)
      const after = statSync(file).size
      const read = rchar()
      const polled = await follower.poll()
      const readByPoll = rchar() - read
      // the 10 records and the listing, the lstat and the run file's probe; a full read is the whole leg
      expect(follower.lastRead.bytes).toBe(after - before)
      expect(readByPoll, `read ${readByPoll} B in a poll of a ${after} B journal`).toBeLessThan(after / 20)
      expect(summary(polled)).toEqual(summary(await store.pending(TENANT, SUITE)))
    }

    // a torn tail waits for its newline
    const whole = statSync(file).size
    writeFileSync(file, '{"torn', { flag: 'a' })
    expect((await follower.poll())[0]!.done.size).toBe(FIRST + 30)
    expect(follower.lastRead.bytes).toBe(6)
    truncateSync(file, whole)

    // cut shorter than what was read: read again from the start, as a full read sees it
    const lines = readFileSync(file, 'utf8').split('\n')
    truncateSync(file, Buffer.byteLength(lines.slice(0, 1000).join('\n') + '\n'))
    const cut = await follower.poll()
    expect(cut[0]!.done.size).toBe(1000 - 3)
    expect(summary(cut)).toEqual(summary(await store.pending(TENANT, SUITE)))

    // replaced by another file of the same size (another inode): read again from the start
    writeFileSync(`${file}.copy`, readFileSync(file))
    renameSync(`${file}.copy`, file)
    await follower.poll()
    expect(follower.lastRead.bytes).toBe(statSync(file).size)

    // the run's legs removed (as filing its document removes them): the journal is no longer shown
    await leg.close()
    unlinkSync(file)
    expect(await follower.poll()).toEqual([])
    await store.close()
  },
)

async function journalRowsRead(): Promise<number> {
  const { rows } = await db.sql(`SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables WHERE relname = 'digline_journal_records'`)
  return Number(rows[0]!.n)
}

/** The server counts what each connection read when the connection is idle: at most 10 s later (PGSTAT_IDLE_INTERVAL). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 11_500))

test('team store: after the first poll, a poll queries only the records after the last one seen, as the server counts the rows it touched', { timeout: 300_000 }, async () => {
  const store = new PostgresStore({ url: db.url })
  const leg = await store.openJournal(journalHeader({ declared: DECLARED }), 1)
  await append(leg, 0, FIRST)
  const follower = store.followPending!(TENANT, SUITE)
  expect((await follower.poll())[0]!.done.size).toBe(FIRST)
  expect(follower.lastRead.rows).toBe(1 + FIRST + 1)

  await append(leg, FIRST, FIRST + 10)
  await settle()
  const before = await journalRowsRead()
  const polled = await follower.poll()
  expect(follower.lastRead.rows).toBe(10)
  await settle()
  const touched = (await journalRowsRead()) - before
  // a full read touches every one of the journal's records
  expect(touched, `the poll touched ${touched} of ${FIRST + 11} journal rows`).toBeLessThan(FIRST / 20)
  expect(summary(polled)).toEqual(summary(await store.pending(TENANT, SUITE)))

  // the run's legs removed (as filing its document removes them): the journal is no longer shown
  await leg.close()
  await db.sql(`DELETE FROM digline_journal_legs`)
  expect(await follower.poll()).toEqual([])
  await store.close()
})
