// Late writers raced for real against the team store, as test/store/delete-race.test.ts races them on
// files: a second process finishes run K (writes its document, completes its journal) after its lease
// expired, while this process deletes K, round after round, each side starting after a random delay.
// However the two interleave, K is never readable afterwards: the writer's document committed first
// and the delete removed it, or the writer waited on the key's lock and the database refused it.
// DIGLINE_RACE_ROUNDS sets the rounds (default 200; 5,000 with DIGLINE_RELIABILITY_LONG=1).
import { hostname } from 'node:os'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Store } from '../../../../src/store/contract.js'
import { PostgresStore } from '../../../../src/store/postgres/store.js'
import { keyOf } from '../../../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../../../helpers/postgres.js'
import { runDoc, TENANT } from '../../delete-fixtures.js'
import { journalHeader } from '../../journal-fixtures.js'
import { startLateWriter, type LateWriter } from './late-writer-child.js'

const LONG = process.env.DIGLINE_RELIABILITY_LONG === '1'
const ROUNDS = Number(process.env.DIGLINE_RACE_ROUNDS ?? (LONG ? 5000 : 200))
/** The spread of the random delays, in ms: about as long as one delete takes on this server. */
const SPREAD_MS = 6

let db: TestDatabase
let store: PostgresStore
let writer: LateWriter
beforeAll(async () => {
  db = await createTestDatabase('delete_race')
  store = new PostgresStore({ url: db.url })
  await store.ready()
  writer = await startLateWriter(db.url)
})
afterAll(async () => {
  writer?.stop()
  await store?.end()
  await db?.drop()
})

const now = () => performance.timeOrigin + performance.now()

/** What every reader of the store says about a key. */
async function visibility(s: Store, suite: string, key: string) {
  const read = await s.readRun(TENANT, suite, key).then(
    () => true,
    () => false,
  )
  const listed = (await s.listRuns(TENANT, suite)).runs.some((r) => r.key === key)
  const scanned = (await s.scanRuns(TENANT, suite)).runs.some((r) => keyOf(r) === key)
  const pending = (await s.pending(TENANT, suite)).some((p) => p.key === key)
  return { read, listed, scanned, pending }
}
const GONE = { read: false, listed: false, scanned: false, pending: false }

test(`a run finished by a late writer while its key is deleted never comes back (${ROUNDS} rounds)`, { timeout: LONG ? 3_600_000 : 180_000 }, async () => {
  expect(ROUNDS).toBeGreaterThan(0)
  const tally = { written: 0, refusedBefore: 0, publishedThenRemoved: 0, duringDelete: 0, resurrected: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const doc = runDoc({ suite: 's', at: round % 3600 })
    const suite = `s${Math.floor(round / 3600)}`
    const filed = { ...doc, suite }
    const key = keyOf(filed)
    await writer.prepare(
      round,
      journalHeader({ suite, created_at: filed.created_at, config_hash: filed.config_hash, lease: { ...journalHeader().lease, host: `${hostname()}-elsewhere` } }),
    )
    const finishing = writer.go(round, filed, Math.random() * SPREAD_MS)
    await new Promise((resolve) => setTimeout(resolve, Math.random() * SPREAD_MS))
    const started = now()
    const removal = await store.deleteRun(TENANT, suite, key)
    const ended = now()
    const finished = await finishing

    expect(removal.nothing, `round ${round}: the leg or the document was there when the delete began`).toBe(false)
    const seen = await visibility(store, suite, key)
    if (JSON.stringify(seen) !== JSON.stringify(GONE)) tally.resurrected += 1
    expect(seen, `round ${round}: ${JSON.stringify(finished)}`).toEqual(GONE)
    expect(await store.removalOf(TENANT, suite, key)).toBeDefined()

    if (finished.outcome === 'written') tally.written += 1
    else if (finished.published) tally.publishedThenRemoved += 1
    else tally.refusedBefore += 1
    if (finished.outcome !== 'written') expect(finished.outcome).toBe('RunRemovedError')
    if (finished.publishedAt !== undefined && finished.publishedAt >= started && finished.publishedAt <= ended) tally.duringDelete += 1
  }
  console.log(
    `team store late writers: ${ROUNDS} rounds; writer finished before the delete removed it ${tally.written}, document committed then removed ${tally.publishedThenRemoved}, refused by the database ${tally.refusedBefore}; document committed while the delete ran ${tally.duringDelete}; resurrected ${tally.resurrected}`,
  )
  expect(tally.resurrected).toBe(0)
  // The rounds raced: some writers were refused by the database after the delete had begun.
  expect(tally.refusedBefore).toBeGreaterThan(0)
})
