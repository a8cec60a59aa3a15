// Late writers, raced for real: a second process finishes run K (writes its document, completes its
// journal) while this process deletes K, round after round, each side starting after a random delay.
// However the two interleave, K is never readable afterwards: the writer is refused before writing,
// or takes its document back after publishing it, or the delete removes what was published.
// DIGLINE_RACE_ROUNDS sets the rounds (default 200).
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { keyOf } from '../helpers/make-run.js'
import { GONE, runDoc, TENANT, visibility } from './delete-fixtures.js'
import { journalHeader } from './journal-fixtures.js'
import { startLateWriter, type LateWriter } from './late-writer-child.js'
import { makeTempStore, type TempStore } from './temp-store.js'

const ROUNDS = Number(process.env.DIGLINE_RACE_ROUNDS ?? 200)
/** The spread of the random delays, in ms: about as long as one delete takes. */
const SPREAD_MS = 8

let temp: TempStore
let writer: LateWriter
beforeAll(async () => {
  temp = makeTempStore()
  writer = await startLateWriter(temp.root)
})
afterAll(() => {
  writer?.stop()
  temp?.cleanup()
})

const now = () => performance.timeOrigin + performance.now()

test(`a run finished by another process while its key is deleted never comes back (${ROUNDS} rounds)`, async () => {
  expect(ROUNDS).toBeGreaterThan(0)
  const tally = { written: 0, refusedBefore: 0, publishedThenRemoved: 0, duringDelete: 0, resurrected: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const doc = runDoc({ suite: 's', at: round })
    const key = keyOf(doc)
    await writer.prepare(
      round,
      journalHeader({ suite: 's', created_at: doc.created_at, config_hash: doc.config_hash, lease: { ...journalHeader().lease, host: `${hostname()}-elsewhere` } }),
    )
    const target = join(temp.root, TENANT, 'runs', 's', `${key}.json`)
    const finishing = writer.go(round, doc, target, Math.random() * SPREAD_MS)
    await new Promise((resolve) => setTimeout(resolve, Math.random() * SPREAD_MS))
    const started = now()
    const removal = await temp.store.deleteRun(TENANT, 's', key)
    const ended = now()
    const finished = await finishing

    expect(removal.nothing, `round ${round}: the leg was there when the delete began`).toBe(false)
    const seen = await visibility(temp.store, 's', key)
    if (JSON.stringify(seen) !== JSON.stringify(GONE)) tally.resurrected += 1
    expect(seen, `round ${round}: ${JSON.stringify(finished)}`).toEqual(GONE)
    expect(await temp.store.removalOf(TENANT, 's', key)).toBeDefined()

    if (finished.outcome === 'written') tally.written += 1
    else if (finished.published) tally.publishedThenRemoved += 1
    else tally.refusedBefore += 1
    if (finished.outcome !== 'written') expect(finished.outcome).toBe('RunRemovedError')
    if (finished.publishedAt !== undefined && finished.publishedAt >= started && finished.publishedAt <= ended) tally.duringDelete += 1
  }
  console.log(
    `late writers: ${ROUNDS} rounds; writer finished before the delete removed it ${tally.written}, published then taken back or removed ${tally.publishedThenRemoved}, refused before writing ${tally.refusedBefore}; document published while the delete ran ${tally.duringDelete}; resurrected ${tally.resurrected}`,
  )
  expect(tally.resurrected).toBe(0)
  // The rounds raced: some documents landed while a delete was running.
  expect(tally.duringDelete).toBeGreaterThan(0)
})
