// The baselines part: the promotion compare-and-swap and the register (SPEC §7).
import { describe, expect, it } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { RunDocument } from '../../../src/document/schema.js'
import { ReplacingMismatchError, ReplacingRequiredError, RunRemovedError } from '../../../src/store/errors.js'
import type { Store } from '../../../src/store/contract.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { refusedWithoutChange, registerEntryFor, type ContractSubject } from './harness.js'

const AT = ['2026-12-01T09:00:00.000001Z', '2026-12-01T10:00:00.000001Z', '2026-12-01T11:00:00.000001Z']

function promotion(run: RunDocument, expected: string | null, at = AT[0]!) {
  return { tenant: run.tenant, suite: run.suite, expected, baseline: baselineOf(run, keyOf(run), at), entry: registerEntryFor(run, expected, at) }
}

async function filed(store: Store, count: number): Promise<RunDocument[]> {
  const runs = createdAtSeconds(count).map((createdAt) => makeRun({ createdAt, results: 4 }))
  for (const run of runs) await store.writeRun(run)
  return runs
}

export function baselinesPart(current: () => ContractSubject): void {
  describe('baselines and the register: promotion is a compare-and-swap', () => {
    it('promotes onto no baseline, reads the baseline back, and appends one register line', async () => {
      const { store } = current()
      const [run] = await filed(store, 1)
      const result = await store.promote(promotion(run!, null))
      expect(result.outcome).toBe('promoted')
      expect(result.entry).toEqual(registerEntryFor(run!, null, AT[0]!))
      expect(await store.readBaseline('acme', 'capitals')).toEqual(baselineOf(run!, keyOf(run!), AT[0]!))
      expect(await store.readRegister('acme')).toEqual([registerEntryFor(run!, null, AT[0]!)])
    })

    it('replaces a baseline only when `expected` names it, and chains the register', async () => {
      const { store } = current()
      const [b0, b1, b2] = await filed(store, 3)
      await store.promote(promotion(b0!, null, AT[0]))
      await store.promote(promotion(b1!, keyOf(b0!), AT[1]))
      await store.promote(promotion(b2!, keyOf(b1!), AT[2]))
      expect((await store.readBaseline('acme', 'capitals'))?.promoted_from).toBe(keyOf(b2!))
      expect((await store.readRegister('acme')).map((e) => [e.key, e.replaced])).toEqual([
        [keyOf(b0!), null],
        [keyOf(b1!), keyOf(b0!)],
        [keyOf(b2!), keyOf(b1!)],
      ])
    })

    it('refuses, naming the current baseline, a promotion that expected none or another one; nothing changes', async () => {
      const subject = current()
      const { store } = subject
      const [b0, b1, b2] = await filed(store, 3)
      await store.promote(promotion(b0!, null))
      const required = await refusedWithoutChange(subject, () => store.promote(promotion(b1!, null, AT[1])), ReplacingRequiredError)
      expect(required.message).toContain(keyOf(b0!))
      expect(required.message).toContain(`--replacing ${keyOf(b0!)}`)
      const mismatch = await refusedWithoutChange(subject, () => store.promote(promotion(b1!, keyOf(b2!), AT[1])), ReplacingMismatchError)
      expect(mismatch.message).toContain(keyOf(b0!))
    })

    it('refuses a promotion that expected a baseline when there is none; nothing changes', async () => {
      const subject = current()
      const [b0, b1] = await filed(subject.store, 2)
      await refusedWithoutChange(subject, () => subject.store.promote(promotion(b1!, keyOf(b0!))), ReplacingMismatchError)
      expect(await subject.store.readBaseline('acme', 'capitals')).toBeUndefined()
    })

    it.each([2, 5])('of %i promotions racing from no baseline, exactly one lands and the register never forks', async (n) => {
      const { store } = current()
      const runs = await filed(store, n)
      const outcomes = await Promise.allSettled(runs.map((run) => store.promote(promotion(run, null))))
      const landed = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [runs[i]!] : []))
      expect(landed).toHaveLength(1)
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ReplacingRequiredError)
      expect((await store.readBaseline('acme', 'capitals'))?.promoted_from).toBe(keyOf(landed[0]!))
      expect((await store.readRegister('acme')).map((e) => e.key)).toEqual([keyOf(landed[0]!)])
    })

    it('of promotions racing from the same baseline, exactly one lands', async () => {
      const { store } = current()
      const [b0, ...rest] = await filed(store, 5)
      await store.promote(promotion(b0!, null))
      const outcomes = await Promise.allSettled(rest.map((run) => store.promote(promotion(run, keyOf(b0!), AT[1]))))
      const landed = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [rest[i]!] : []))
      expect(landed).toHaveLength(1)
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ReplacingMismatchError)
      const register = await store.readRegister('acme')
      expect(register.map((e) => [e.key, e.replaced])).toEqual([
        [keyOf(b0!), null],
        [keyOf(landed[0]!), keyOf(b0!)],
      ])
    })

    it('promoting the baseline again writes nothing (already)', async () => {
      const subject = current()
      const [b0] = await filed(subject.store, 1)
      await subject.store.promote(promotion(b0!, null))
      const before = await subject.snapshot()
      expect((await subject.store.promote(promotion(b0!, keyOf(b0!), AT[1]))).outcome).toBe('already')
      expect(await subject.snapshot()).toEqual(before)
    })

    it('keeps each suite its own baseline under one tenant register', async () => {
      const { store } = current()
      const capitals = makeRun({ suite: 'capitals' })
      const rivers = makeRun({ suite: 'rivers' })
      await store.writeRun(capitals)
      await store.writeRun(rivers)
      await store.promote(promotion(capitals, null))
      await store.promote(promotion(rivers, null, AT[1]))
      expect((await store.readBaseline('acme', 'rivers'))?.suite).toBe('rivers')
      expect((await store.readRegister('acme')).map((e) => e.suite)).toEqual(['capitals', 'rivers'])
      expect(await store.readRegister('globex')).toEqual([])
    })

    it('refuses to promote a removed key, and nothing changes', async () => {
      const subject = current()
      const [b0] = await filed(subject.store, 1)
      await subject.store.deleteRun('acme', 'capitals', keyOf(b0!))
      await refusedWithoutChange(subject, () => subject.store.promote(promotion(b0!, null)), RunRemovedError)
    })
  })
}
