// The suite lifecycle part (SPEC §10, seed 003): retiring is a soft delete of a definition.
import { describe, expect, it } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { PathRefusedError } from '../../../src/errors.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { HOSTILE_NAMES, refusedWithoutChange, registerEntryFor, type ContractSubject } from './harness.js'

const AT = '2026-12-01T09:00:00.000001Z'

export function suitesPart(current: () => ContractSubject): void {
  describe('the suite lifecycle', () => {
    it('retires a suite once, says so, and lists it among the retired suites of its tenant only', async () => {
      const { store } = current()
      expect(await store.retirementOf('acme', 'capitals')).toBeUndefined()
      expect(await store.retiredSuites('acme')).toEqual([])
      const first = await store.retireSuite('acme', 'capitals')
      expect(first.suite).toBe('capitals')
      expect(first.retired_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
      expect(await store.retireSuite('acme', 'capitals')).toEqual(first)
      expect(await store.retirementOf('acme', 'capitals')).toEqual(first)
      await store.retireSuite('acme', 'rivers')
      expect((await store.retiredSuites('acme')).map((r) => r.suite)).toEqual(['capitals', 'rivers'])
      expect(await store.retiredSuites('globex')).toEqual([])
      expect(await store.retirementOf('globex', 'capitals')).toBeUndefined()
    })

    it('keeps the runs, the baseline, the register and the removal records of a retired suite, and no delete brings it back', async () => {
      const { store } = current()
      const [a, b] = createdAtSeconds(2)
      const base = makeRun({ createdAt: a })
      const gone = makeRun({ createdAt: b })
      await store.writeRun(base)
      await store.writeRun(gone)
      await store.promote({ tenant: 'acme', suite: 'capitals', expected: null, baseline: baselineOf(base, keyOf(base), AT), entry: registerEntryFor(base, null, AT) })
      await store.deleteRun('acme', 'capitals', keyOf(gone))
      const retirement = await store.retireSuite('acme', 'capitals')
      expect(await store.readRun('acme', 'capitals', keyOf(base))).toEqual(base)
      expect((await store.readBaseline('acme', 'capitals'))?.promoted_from).toBe(keyOf(base))
      expect((await store.readRegister('acme')).map((e) => e.key)).toEqual([keyOf(base)])
      expect(await store.removalOf('acme', 'capitals', keyOf(gone))).toBeDefined()
      await store.deleteRun('acme', 'capitals', keyOf(gone))
      expect(await store.retirementOf('acme', 'capitals')).toEqual(retirement)
    })

    it('refuses hostile names before any I/O', async () => {
      const subject = current()
      for (const name of HOSTILE_NAMES) {
        await refusedWithoutChange(subject, () => subject.store.retireSuite('acme', name), PathRefusedError)
        await refusedWithoutChange(subject, () => subject.store.retireSuite(name, 'capitals'), PathRefusedError)
        await refusedWithoutChange(subject, () => subject.store.retirementOf('acme', name), PathRefusedError)
        await refusedWithoutChange(subject, () => subject.store.retiredSuites(name), PathRefusedError)
      }
    })
  })
}
