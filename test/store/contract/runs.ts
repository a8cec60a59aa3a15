// The runs part: write, read back byte-identical, list headers without results, scan, latest key,
// and every refusal before any change.
import { describe, expect, it } from 'vitest'
import { serializeRun } from '../../../src/document/serialize.js'
import { PathRefusedError } from '../../../src/suite/errors.js'
import { RunNotFoundError, UnreadableRunError } from '../../../src/store/errors.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { HOSTILE_NAMES, headerOf, refusedWithoutChange, type ContractSubject } from './harness.js'

export function runsPart(current: () => ContractSubject): void {
  describe('runs', () => {
    it('writes a run under its key and reads the same document back, byte for byte once serialized', async () => {
      const { store } = current()
      const doc = makeRun({ results: 5, metadata: { nested: { list: [1, 'two', null, { three: 3.5 }] }, unicode: 'Zürich ✓' } })
      const stored = await store.writeRun(doc)
      expect(stored).toMatchObject({ tenant: 'acme', suite: 'capitals', key: keyOf(doc) })
      const read = await store.readRun('acme', 'capitals', stored.key)
      expect(read).toEqual(doc)
      expect(serializeRun(read)).toBe(serializeRun(doc))
    })

    it('replaces the document when the same key is written again', async () => {
      const { store } = current()
      await store.writeRun(makeRun({ results: 2 }))
      const second = makeRun({ results: 4, metadata: { second: true } })
      await store.writeRun(second)
      expect(await store.readRun('acme', 'capitals', keyOf(second))).toEqual(second)
      expect((await store.listRuns('acme', 'capitals')).runs).toHaveLength(1)
    })

    it('keeps optional header fields and an empty result list', async () => {
      const { store } = current()
      const doc = { ...makeRun({ results: 0 }), rejudged_from: '20261129T223955000001Z-aaaaaaaaaaaa', rejudged_from_suite: 'capitals', git_commit: 'abc123-dirty' }
      await store.writeRun(doc)
      expect(await store.readRun('acme', 'capitals', keyOf(doc))).toEqual(doc)
    })

    it('lists headers and aggregates in key order, whatever the write order, and never the results', async () => {
      const { store } = current()
      const stamps = createdAtSeconds(4)
      const docs = [2, 0, 3, 1].map((i) => makeRun({ createdAt: stamps[i], results: 3 }))
      for (const doc of docs) await store.writeRun(doc)
      const listing = await store.listRuns('acme', 'capitals')
      expect(listing).toMatchObject({ tenant: 'acme', suite: 'capitals' })
      expect(listing.runs.map((r) => r.key)).toEqual(stamps.map((s) => keyOf(makeRun({ createdAt: s }))))
      for (const run of listing.runs) {
        const doc = docs.find((d) => keyOf(d) === run.key)!
        if (run.refusal !== undefined) throw new Error(`run ${run.key} was refused: ${run.refusal.message}`)
        expect(run.header).toEqual(headerOf(doc))
        expect(run.aggregates).toEqual(doc.aggregates)
        expect(Object.keys(run).sort()).toEqual(['aggregates', 'header', 'key'])
        expect(JSON.stringify(run)).not.toContain('case_id')
      }
    })

    it('scans whole documents in key order, and names the latest key', async () => {
      const { store } = current()
      const stamps = createdAtSeconds(3)
      for (const stamp of [stamps[1], stamps[2], stamps[0]]) await store.writeRun(makeRun({ createdAt: stamp, results: 2 }))
      const scan = await store.scanRuns('acme', 'capitals')
      expect(scan.refused).toEqual([])
      expect(scan.runs).toEqual(stamps.map((s) => makeRun({ createdAt: s, results: 2 })))
      expect(await store.latestKey('acme', 'capitals')).toBe(keyOf(makeRun({ createdAt: stamps[2] })))
    })

    it('keeps tenants and suites apart, and lists the suites of a tenant', async () => {
      const { store } = current()
      await store.writeRun(makeRun({ tenant: 'acme', suite: 'capitals' }))
      await store.writeRun(makeRun({ tenant: 'acme', suite: 'rivers' }))
      await store.writeRun(makeRun({ tenant: 'globex', suite: 'capitals', createdAt: createdAtSeconds(1)[0] }))
      expect((await store.listRuns('acme', 'capitals')).runs).toHaveLength(1)
      expect((await store.listRuns('acme', 'rivers')).runs).toHaveLength(1)
      expect((await store.scanRuns('globex', 'capitals')).runs.map((d) => d.tenant)).toEqual(['globex'])
      expect([...(await store.listSuites('acme'))].sort()).toEqual(['capitals', 'rivers'])
      expect(await store.listSuites('globex')).toEqual(['capitals'])
    })

    it('has an empty listing, no scan, no latest key and no suites where nothing was written, and creates nothing', async () => {
      const subject = current()
      const { store } = subject
      const before = await subject.snapshot()
      expect(await store.listRuns('acme', 'capitals')).toEqual({ tenant: 'acme', suite: 'capitals', runs: [] })
      expect(await store.scanRuns('nobody', 'nothing')).toEqual({ tenant: 'nobody', suite: 'nothing', runs: [], refused: [] })
      expect(await store.latestKey('acme', 'capitals')).toBeUndefined()
      expect(await store.listSuites('nobody')).toEqual([])
      expect(await store.pending('acme', 'capitals')).toEqual([])
      expect(await store.readBaseline('acme', 'capitals')).toBeUndefined()
      expect(await store.readRegister('acme')).toEqual([])
      expect(await store.removalOf('acme', 'capitals', keyOf(makeRun()))).toBeUndefined()
      expect(await subject.snapshot()).toEqual(before)
    })
  })

  describe('runs: refusals (nothing changes)', () => {
    const hostile = (): string[] => [...HOSTILE_NAMES, ...(current().outsideName === undefined ? [] : [current().outsideName!])]

    it.each(['tenant', 'suite'] as const)('refuses every hostile %s name before any I/O, for every operation', async (field) => {
      const subject = current()
      const { store } = subject
      await store.writeRun(makeRun())
      for (const name of hostile()) {
        const names = { tenant: 'acme', suite: 'capitals', [field]: name }
        const key = keyOf(makeRun())
        await refusedWithoutChange(subject, () => store.writeRun(makeRun(names)), PathRefusedError)
        await refusedWithoutChange(subject, () => store.readRun(names.tenant, names.suite, key), PathRefusedError)
        await refusedWithoutChange(subject, () => store.listRuns(names.tenant, names.suite), PathRefusedError)
        await refusedWithoutChange(subject, () => store.scanRuns(names.tenant, names.suite), PathRefusedError)
        await refusedWithoutChange(subject, () => store.latestKey(names.tenant, names.suite), PathRefusedError)
        await refusedWithoutChange(subject, () => store.deleteRun(names.tenant, names.suite, key), PathRefusedError)
        await refusedWithoutChange(subject, () => store.pending(names.tenant, names.suite), PathRefusedError)
        await refusedWithoutChange(subject, () => store.readBaseline(names.tenant, names.suite), PathRefusedError)
        await refusedWithoutChange(subject, () => store.removalOf(names.tenant, names.suite, key), PathRefusedError)
      }
    })

    it('refuses every hostile key on read and delete, and a created_at that is not a timestamp (so no key) on write', async () => {
      const subject = current()
      const { store } = subject
      await store.writeRun(makeRun())
      for (const name of hostile()) {
        await refusedWithoutChange(subject, () => store.readRun('acme', 'capitals', name), PathRefusedError)
        await refusedWithoutChange(subject, () => store.deleteRun('acme', 'capitals', name), PathRefusedError)
      }
      for (const createdAt of ['2026/../../x', '../../../outside', '', 'x'.repeat(150)]) {
        const refusal = await refusedWithoutChange(subject, () => store.writeRun({ ...makeRun(), created_at: createdAt }), UnreadableRunError)
        expect(refusal.path).toEqual(['created_at'])
      }
    })

    it('refuses to write a document that does not match the schema, naming the field', async () => {
      const subject = current()
      const doc = makeRun()
      const broken = { ...doc, aggregates: { ...doc.aggregates, pass_rate: 7 } }
      const refusal = await refusedWithoutChange(subject, () => subject.store.writeRun(broken), UnreadableRunError)
      expect(refusal.message).toContain('aggregates.pass_rate')
      expect(refusal.path).toEqual(['aggregates', 'pass_rate'])
    })

    it('refuses a missing run, naming `digline list --suite S`', async () => {
      const subject = current()
      await subject.store.writeRun(makeRun())
      const refusal = await refusedWithoutChange(subject, () => subject.store.readRun('acme', 'capitals', '20260101T000000000000Z-000000000000'), RunNotFoundError)
      expect(refusal.message).toContain('digline list --suite capitals')
    })
  })
}
