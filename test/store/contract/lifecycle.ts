// The lifecycle part (ADR 0160): close() releases what the store holds and is idempotent; after it,
// every operation is refused by name (InternalError) and nothing changes; a journal leg opened
// before it takes no more records.
import { describe, expect, it } from 'vitest'
import { InternalError } from '../../../src/errors/base.js'
import { makeRun } from '../../helpers/make-run.js'
import { journalHeader, judged, OBSERVED_1, progress, SUITE, TENANT } from '../journal-fixtures.js'
import { failedWithoutChange, type ContractSubject } from './harness.js'

export function lifecyclePart(current: () => ContractSubject): void {
  describe('lifecycle: close()', () => {
    it('closes once, and a second close() resolves as the first did', async () => {
      const { store } = current()
      await store.writeRun(makeRun({ results: 1 }))
      await store.close()
      await expect(store.close()).resolves.toBeUndefined()
    })

    it('refuses every operation after close() with an InternalError that says so, and changes nothing', async () => {
      const subject = current()
      const { store } = subject
      const doc = makeRun({ results: 2 })
      await store.writeRun(doc)
      await store.close()
      const operations: [string, () => Promise<unknown>][] = [
        ['writeRun', () => store.writeRun(makeRun({ results: 3, metadata: { after: 'close' } }))],
        ['readRun', () => store.readRun(TENANT, SUITE, 'latest')],
        ['listRuns', () => store.listRuns(TENANT, SUITE)],
        ['latestKey', () => store.latestKey(TENANT, SUITE)],
        ['readBaseline', () => store.readBaseline(TENANT, SUITE)],
        ['openJournal', () => store.openJournal(journalHeader(), 1)],
        ['pending', () => store.pending(TENANT, SUITE)],
        ['retireSuite', () => store.retireSuite(TENANT, SUITE)],
        ['cachedAnswersOf', () => store.cachedAnswersOf(TENANT, SUITE, 'case-0')],
      ]
      for (const [name, operation] of operations) {
        const refusal = await failedWithoutChange(subject, operation, InternalError)
        expect(refusal.message).toContain(`${name}() was called on`)
        expect(refusal.message).toContain('after the store was closed')
      }
    })

    it('closes the journal legs it opened: a leg takes no more records after close()', async () => {
      const { store } = current()
      const leg = await store.openJournal(journalHeader(), 1)
      await leg.append(progress(judged(0), OBSERVED_1, 0))
      await store.close()
      await expect(leg.append(progress(judged(1), OBSERVED_1, 1))).rejects.toThrow()
    })
  })
}
