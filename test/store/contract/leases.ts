// The leases part and the killed writer (SPEC §6, §8): a journal leg written by another live process
// blocks the delete of its run and is pending with its lease live; once that process is SIGKILLed its
// lease no longer holds, the delete goes ahead, and every append it had confirmed is pending — torn
// tail or not. The writer is a real child process that opens the same store by its locator.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { LiveRunError } from '../../../src/store/errors.js'
import { seededRandom } from '../../../src/stats/prng.js'
import type { Pending } from '../../../src/store/journal.js'
import type { ChildStore } from '../child-store.js'
import { DECLARED, journalHeader, judged, KEY, OBSERVED_1, progress, SUITE, TENANT } from '../journal-fixtures.js'
import { refusedWithoutChange, type ContractSubject } from './harness.js'
import { compileWriter, startWriter, type Writer } from './writer.js'

/** Leg 1's opening without a lease: the writer child puts its own. */
function opening() {
  const { lease: _lease, ...rest } = journalHeader()
  return rest
}

/** Cases 0 … 39, in order: what a killed writer was appending. */
const RECORDS = Array.from({ length: 40 }, (_, i) => progress(judged(i), OBSERVED_1, i))

/** The seeds of the kill points: each one a reproducible run of the killed-writer rule. */
const KILL_SEEDS = [20261201, 4, 977]

async function onlyPending(subject: ContractSubject): Promise<Pending> {
  const all = await subject.store.pending(TENANT, SUITE)
  expect(all.map((p) => p.key)).toEqual([KEY])
  return all[0]!
}

/** The pending journal once the killed writer's lease has stopped holding (at once, unless the backend's lease expires on its own). */
async function afterLeaseDied(subject: ContractSubject): Promise<Pending> {
  const deadline = Date.now() + (subject.deadLeaseMs ?? 0)
  for (;;) {
    const pending = await onlyPending(subject)
    if (pending.leases.every((l) => !l.live) || Date.now() >= deadline) return pending
    await new Promise((r) => setTimeout(r, 20))
  }
}

export function leasesPart(current: () => ContractSubject): void {
  describe('leases and a killed writer: another process writes a journal leg', () => {
    let compiled: ChildStore | undefined
    let writers: Writer[] = []
    beforeAll(() => {
      compiled = compileWriter()
    })
    afterAll(() => compiled?.cleanup())
    afterEach(async () => {
      await Promise.all(writers.map((w) => w.kill()))
      writers = []
    })
    const writer = async (): Promise<Writer> => {
      if (compiled === undefined) throw new Error('the writer child is compiled before the first test')
      const started = await startWriter(compiled, current().locator)
      writers.push(started)
      return started
    }

    it('a leg held by a live process refuses the delete of its run (LiveRunError, naming the process; nothing changes); once the process is killed the lease no longer holds and the delete goes ahead', async () => {
      const subject = current()
      const { store } = subject
      const w = await writer()
      await w.open(opening(), 1)
      await w.append(RECORDS.slice(0, 3))

      const live = await onlyPending(subject)
      expect(live.legs).toEqual([1])
      expect(live.leases).toEqual([expect.objectContaining({ leg: 1, live: true, lease: expect.objectContaining({ pid: w.pid }) })])
      const refusal = await refusedWithoutChange(subject, () => store.deleteRun(TENANT, SUITE, KEY), LiveRunError)
      expect(refusal.message).toContain(String(w.pid))
      expect(await store.removalOf(TENANT, SUITE, KEY)).toBeUndefined()

      await w.kill()
      const dead = await afterLeaseDied(subject)
      expect(dead.leases).toEqual([expect.objectContaining({ leg: 1, live: false, lease: expect.objectContaining({ pid: w.pid }) })])
      expect([...dead.done.keys()]).toEqual(RECORDS.slice(0, 3).map((p) => p.result.case_id))

      const removal = await store.deleteRun(TENANT, SUITE, KEY)
      expect(removal).toMatchObject({ nothing: false, alreadyRemovedAt: undefined, run: { ref: { tenant: TENANT, suite: SUITE, key: KEY }, document: false, legs: 1 } })
      expect(await store.pending(TENANT, SUITE)).toEqual([])
      expect(await store.removalOf(TENANT, SUITE, KEY)).toBeDefined()
    })

    it.each(KILL_SEEDS)('a writer SIGKILLed mid-append (seed %i) leaves every append it confirmed pending, nothing it did not append, and no refusal', async (seed) => {
      const subject = current()
      const killAfter = Math.floor(seededRandom(seed)() * RECORDS.length)
      const w = await writer()
      await w.open(opening(), 1)
      w.startAppending(RECORDS)
      await w.confirmed(killAfter)
      await w.kill()
      const confirmed = w.appended.length
      expect(w.appended).toEqual(Array.from({ length: confirmed }, (_, i) => i))

      const pending = await afterLeaseDied(subject)
      expect(pending.refusal).toBeUndefined()
      expect(pending.legs).toEqual([1])
      expect(pending.declared).toEqual(DECLARED)
      expect(pending.header).toMatchObject({ tenant: TENANT, suite: SUITE, leg: 1, lease: { pid: w.pid } })
      expect(pending.leases.map((l) => l.live)).toEqual([false])
      // Appends are one at a time: what is pending is the records in order, every confirmed one, and
      // at most the one the child was killed in (durable, but not yet confirmed).
      const done = [...pending.done.values()]
      expect(done.length).toBeGreaterThanOrEqual(confirmed)
      expect(done.length).toBeLessThanOrEqual(confirmed + 1)
      expect(done).toEqual(RECORDS.slice(0, done.length).map((p) => p.result))
      expect(pending.causes).toEqual(new Map())
      if (done.length > 0) expect(pending.observed).toEqual(OBSERVED_1)
    })
  })
}
