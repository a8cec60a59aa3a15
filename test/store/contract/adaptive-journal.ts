// Adaptive samples in the journal (ADR 0360): the declared cases carry min_samples, a case record
// holds between min and max samples with its stop reason, and both come back from pending() as
// written; a record with fewer samples than min is refused by name, never merged.
import { describe, expect, it } from 'vitest'
import type { CaseResult, SampleResult } from '../../../src/document/schema.js'
import { DECLARED, journalHeader, judged, OBSERVED_1, progress, SUITE, TENANT } from '../journal-fixtures.js'
import type { ContractSubject } from './harness.js'

const ADAPTIVE = { samples: 5, min_samples: 2, digests: DECLARED.digests }

function taking(index: number, passes: readonly boolean[], stopped: 'settled' | 'max'): CaseResult {
  const samples: SampleResult[] = passes.map((pass) => ({ pass, score: pass ? 1 : 0, scorers: [{ name: 'exact', pass, score: pass ? 1 : 0, reason: null }] }))
  const passed = passes.filter(Boolean).length
  return { ...judged(index), verdict: passed >= 3 ? 'pass' : 'fail', score: passed / passes.length, passed_samples: passed, reason: null, samples, sampling_stopped: stopped }
}

export function adaptiveJournalPart(current: () => ContractSubject): void {
  describe('journal: adaptive samples', () => {
    it('keeps min_samples in the declared cases, and each case with the samples it took and why it stopped', async () => {
      const { store } = current()
      const leg = await store.openJournal(journalHeader({ declared: ADAPTIVE }), 1)
      const records = [taking(0, [true, true, true], 'settled'), taking(1, [true, false, true, false, true], 'max'), taking(2, [false, false, false], 'settled')]
      for (const [i, r] of records.entries()) await leg.append(progress(r, OBSERVED_1, i))
      await leg.close()
      const [pending] = await store.pending(TENANT, SUITE)
      expect(pending!.refusal).toBeUndefined()
      expect(pending!.declared).toEqual(ADAPTIVE)
      expect([...pending!.done.values()]).toEqual(records)
    })

    it('refuses a record with fewer samples than min_samples, naming both counts', async () => {
      const { store } = current()
      const leg = await store.openJournal(journalHeader({ declared: ADAPTIVE }), 1)
      await leg.append(progress(taking(0, [false], 'settled'), OBSERVED_1, 0))
      await leg.close()
      const [pending] = await store.pending(TENANT, SUITE)
      expect(pending!.refusal?.message).toContain('with 1 sample(s), and run')
      expect(pending!.refusal?.message).toContain('takes 2 to 5 per case')
    })
  })
}
