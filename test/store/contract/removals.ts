// The delete, the removal records and the journal (SPEC §6, §8): what a delete removes and never
// touches, its repeatability, and that no writer brings a removed key back.
import { describe, expect, it } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { PromotedRunError, RunNotFoundError, RunRemovedError } from '../../../src/store/errors.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { journalHeader, LEG_1, OBSERVED_1, judged, progress } from '../journal-fixtures.js'
import { refusedWithoutChange, registerEntryFor, type ContractSubject } from './harness.js'

const AT = '2026-12-01T09:00:00.000001Z'

export function removalsPart(current: () => ContractSubject): void {
  describe('the journal', () => {
    it('journals cases across legs, lists them pending, and drops the journal once its document is filed', async () => {
      const { store } = current()
      const run = makeRun()
      const leg1 = await store.openJournal(journalHeader(), 1)
      for (const p of LEG_1.slice(0, 3)) await leg1.append(p)
      await leg1.close()
      const leg2 = await store.openJournal(journalHeader({ started_at: '2026-11-29T22:41:00.000001Z' }), 2)
      await leg2.append(progress(judged(5), OBSERVED_1, 5))
      await leg2.close()
      const [pending] = await store.pending('acme', 'capitals')
      expect(pending).toMatchObject({ tenant: 'acme', suite: 'capitals', key: keyOf(run), legs: [1, 2], finished: false, refusal: undefined })
      expect([...pending!.done.keys()]).toEqual([...LEG_1.slice(0, 3).map((p) => p.result.case_id), judged(5).case_id])
      expect(await store.listSuites('acme')).toEqual(['capitals'])
      await refusedWithoutChange(current(), () => store.dropPending('acme', 'capitals', keyOf(run)), RunNotFoundError)
      expect(await store.pending('acme', 'capitals')).toHaveLength(1)
      await store.writeRun(run)
      expect((await store.pending('acme', 'capitals'))[0]?.finished).toBe(true)
      await store.dropPending('acme', 'capitals', keyOf(run))
      expect(await store.pending('acme', 'capitals')).toEqual([])
    })

    it('completing a journal removes it; the run document stays', async () => {
      const { store } = current()
      const run = makeRun()
      const journal = await store.openJournal(journalHeader(), 1)
      await journal.append(LEG_1[0]!)
      await store.writeRun(run)
      await journal.complete()
      await journal.close()
      expect(await store.pending('acme', 'capitals')).toEqual([])
      expect(await store.readRun('acme', 'capitals', keyOf(run))).toEqual(run)
    })
  })

  describe('the delete and its removal records', () => {
    it('removes the document and the journal, records the removal, and says so again when repeated', async () => {
      const { store } = current()
      const run = makeRun()
      await (await store.openJournal(journalHeader(), 1)).close()
      await store.writeRun(run)
      const first = await store.deleteRun('acme', 'capitals', keyOf(run))
      expect(first).toMatchObject({
        nothing: false,
        alreadyRemovedAt: undefined,
        run: { ref: { tenant: 'acme', suite: 'capitals', key: keyOf(run) }, document: true, legs: 1, created_at: run.created_at },
      })
      expect(await store.listRuns('acme', 'capitals')).toEqual({ tenant: 'acme', suite: 'capitals', runs: [] })
      expect(await store.pending('acme', 'capitals')).toEqual([])
      const notice = await store.removalOf('acme', 'capitals', keyOf(run))
      expect(notice?.record).toMatchObject({ tenant: 'acme', suite: 'capitals', key: keyOf(run), created_at: run.created_at })
      const again = await store.deleteRun('acme', 'capitals', keyOf(run))
      expect(again.nothing).toBe(true)
      expect(again.alreadyRemovedAt).toBe(notice?.record?.removed_at)
    })

    it('has nothing to remove for a key never filed, and says so without a record of removal', async () => {
      const { store } = current()
      const removal = await store.deleteRun('acme', 'capitals', keyOf(makeRun()))
      expect(removal).toMatchObject({ nothing: true, replays: [], unread: 0 })
    })

    it('cascades through replays in every suite of the tenant, leaves first, and never touches another tenant', async () => {
      const { store } = current()
      const [a, b, c] = createdAtSeconds(3)
      const run = makeRun({ createdAt: a })
      const replay = { ...makeRun({ createdAt: b }), rejudged_from: keyOf(run), rejudged_from_suite: 'capitals' }
      const replayOfReplay = { ...makeRun({ suite: 'rivers', createdAt: c }), rejudged_from: keyOf(replay), rejudged_from_suite: 'capitals' }
      const other = makeRun({ tenant: 'globex', createdAt: a })
      for (const doc of [run, replay, replayOfReplay, other]) await store.writeRun(doc)
      const removal = await store.deleteRun('acme', 'capitals', keyOf(run))
      expect(removal.replays.map((r) => [r.ref.suite, r.ref.key])).toEqual([
        ['rivers', keyOf(replayOfReplay)],
        ['capitals', keyOf(replay)],
      ])
      expect((await store.scanRuns('acme', 'capitals')).runs).toEqual([])
      expect((await store.scanRuns('acme', 'rivers')).runs).toEqual([])
      expect((await store.scanRuns('globex', 'capitals')).runs).toEqual([other])
      for (const [suite, key] of [
        ['capitals', keyOf(replay)],
        ['rivers', keyOf(replayOfReplay)],
      ] as const) {
        expect(await store.removalOf('acme', suite, key)).toBeDefined()
      }
    })

    it('refuses to delete the run under a baseline (also when its document is gone), and never touches baselines or the register', async () => {
      const subject = current()
      const { store } = subject
      const [a, b] = createdAtSeconds(2)
      const base = makeRun({ createdAt: a })
      const next = makeRun({ createdAt: b })
      await store.writeRun(base)
      await store.writeRun(next)
      await store.promote({ tenant: 'acme', suite: 'capitals', expected: null, baseline: baselineOf(base, keyOf(base), AT), entry: registerEntryFor(base, null, AT) })
      const refusal = await refusedWithoutChange(subject, () => store.deleteRun('acme', 'capitals', keyOf(base)), PromotedRunError)
      expect(refusal.message).toContain(keyOf(base))
      const baseline = await store.readBaseline('acme', 'capitals')
      const register = await store.readRegister('acme')
      await store.deleteRun('acme', 'capitals', keyOf(next))
      expect(await store.readBaseline('acme', 'capitals')).toEqual(baseline)
      expect(await store.readRegister('acme')).toEqual(register)
    })

    it('no writer brings a removed key back: writing its document, a replay of it, a journal leg, reading it', async () => {
      const subject = current()
      const { store } = subject
      const run = makeRun()
      await store.writeRun(run)
      await store.deleteRun('acme', 'capitals', keyOf(run))
      await refusedWithoutChange(subject, () => store.writeRun(run), RunRemovedError)
      const replay = { ...makeRun({ createdAt: createdAtSeconds(1)[0] }), rejudged_from: keyOf(run), rejudged_from_suite: 'capitals' }
      await refusedWithoutChange(subject, () => store.writeRun(replay), RunRemovedError)
      await refusedWithoutChange(subject, () => store.openJournal(journalHeader(), 1), RunRemovedError)
      await refusedWithoutChange(subject, () => store.readRun('acme', 'capitals', keyOf(run)), RunRemovedError)
    })
  })
}
