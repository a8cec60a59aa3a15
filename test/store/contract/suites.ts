// The suite lifecycle part (SPEC §10, seed 003): retiring is a soft delete of a definition.
import { describe, expect, it } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { PathRefusedError } from '../../../src/suite/errors.js'
import { RunRemovedError } from '../../../src/store/errors.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { journalHeader, LEG_1 } from '../journal-fixtures.js'
import { HOSTILE_NAMES, refusalOf, refusedWithoutChange, registerEntryFor, type ContractSubject } from './harness.js'

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

    it("keeps listing a retired suite: hiding it is the front ends' part, so every backend answers the same counts", async () => {
      const { store } = current()
      const [a, b] = createdAtSeconds(2)
      const first = makeRun({ createdAt: a })
      await store.writeRun(first)
      await store.writeRun(makeRun({ createdAt: b }))
      const journal = await store.openJournal(journalHeader({ created_at: '2026-11-29T23:00:00.000001Z' }), 1)
      await journal.append(LEG_1[0]!)
      await journal.close()
      const before = {
        suites: await store.listSuites('acme'),
        listing: await store.listRuns('acme', 'capitals'),
        scan: await store.scanRuns('acme', 'capitals'),
        latest: await store.latestKey('acme', 'capitals'),
        pending: (await store.pending('acme', 'capitals')).map((p) => ({ key: p.key, finished: p.finished, done: [...p.done.keys()] })),
      }
      await store.retireSuite('acme', 'capitals')
      expect({
        suites: await store.listSuites('acme'),
        listing: await store.listRuns('acme', 'capitals'),
        scan: await store.scanRuns('acme', 'capitals'),
        latest: await store.latestKey('acme', 'capitals'),
        pending: (await store.pending('acme', 'capitals')).map((p) => ({ key: p.key, finished: p.finished, done: [...p.done.keys()] })),
      }).toEqual(before)
      expect(before.suites).toEqual(['capitals'])
      expect(before.listing.runs.map((r) => r.key)).toEqual([keyOf(first), keyOf(makeRun({ createdAt: b }))])
    })

    it('still hard-deletes a run of a retired suite: the document goes, a removal record bars the key, the retirement stays', async () => {
      const { store } = current()
      const run = makeRun()
      await store.writeRun(run)
      const retirement = await store.retireSuite('acme', 'capitals')
      const removal = await store.deleteRun('acme', 'capitals', keyOf(run))
      expect(removal.nothing).toBe(false)
      await refusalOf(store.readRun('acme', 'capitals', keyOf(run)), RunRemovedError)
      await refusalOf(store.writeRun(run), RunRemovedError)
      expect((await store.listRuns('acme', 'capitals')).runs).toEqual([])
      expect(await store.removalOf('acme', 'capitals', keyOf(run))).toBeDefined()
      expect(await store.retirementOf('acme', 'capitals')).toEqual(retirement)
      expect(await store.retiredSuites('acme')).toEqual([retirement])
    })

    it('retires a name nothing was filed under, and only that name: not a longer name it begins, not the same name in another tenant', async () => {
      const { store } = current()
      const retirement = await store.retireSuite('acme', 'capitals')
      expect(await store.retirementOf('acme', 'capitals-v2')).toBeUndefined()
      expect(await store.retirementOf('acme', 'capital')).toBeUndefined()
      expect(await store.retirementOf('globex', 'capitals')).toBeUndefined()
      await store.writeRun(makeRun({ suite: 'capitals-v2' }))
      expect(await store.retiredSuites('acme')).toEqual([retirement])
      expect(await store.listSuites('acme')).toEqual(['capitals-v2'])
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
