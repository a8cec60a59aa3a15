// pendingCases(): a survey of which cases each journal holds (a merge's checks, ADR 0562) gives what
// pending() gives (the journals, their legs, leases, header, declaration and refusals) with the ids
// of the journaled cases in place of their results.
import { describe, expect, it } from 'vitest'
import type { Pending, PendingCases } from '../../../src/store/journal.js'
import { journalHeader, LEG_1, LEG_2, SUITE, TENANT } from '../journal-fixtures.js'
import type { ContractSubject } from './harness.js'

function asSurvey({ done, causes: _causes, observed: _observed, ...rest }: Pending): PendingCases {
  return { ...rest, caseIds: new Set(done.keys()) }
}

export function pendingCasesPart(current: () => ContractSubject): void {
  describe('journal: a survey of the cases', () => {
    it("gives pending()'s journals with the ids of their cases, errored ones included", async () => {
      const { store } = current()
      for (const [i, records] of [LEG_1, LEG_2].entries()) {
        const leg = await store.openJournal(journalHeader({ started_at: `2026-11-29T22:4${i}:00.000001Z` }), i + 1)
        for (const p of records) await leg.append(p)
        await leg.close()
      }
      const whole = await store.pending(TENANT, SUITE)
      expect(whole).toHaveLength(1)
      expect(whole[0]!.done.size).toBe(18)
      expect(await store.pendingCases(TENANT, SUITE)).toEqual(whole.map(asSurvey))
    })

    it("gives pending()'s refusal for legs that are not one run", async () => {
      const { store } = current()
      const first = await store.openJournal(journalHeader(), 1)
      await first.append(LEG_1[0]!)
      await first.close()
      const second = await store.openJournal(journalHeader({ cases_digest: 'another-cases' }), 2)
      await second.append(LEG_1[1]!)
      await second.close()
      const whole = await store.pending(TENANT, SUITE)
      expect(whole[0]!.refusal?.message).toContain('has a cases_digest that differs')
      expect(await store.pendingCases(TENANT, SUITE)).toEqual(whole.map(asSurvey))
    })
  })
}
