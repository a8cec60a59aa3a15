// The ResultStore contract: one suite every backend must pass (FileResultStore runs it in
// file-store.test.ts). A backend supplies a factory for a fresh, empty store with two test hooks:
// plantRaw puts raw bytes where the store keeps a run (to make hostile and misfiled inputs), and
// snapshot returns a comparable picture of all it holds, to prove a refusal changed nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HEADER_KEYS, type RunDocument } from '../../src/document/schema.js'
import { serializeRun } from '../../src/document/serialize.js'
import {
  DiglineError,
  InternalError,
  MisfiledRunError,
  PathRefusedError,
  RunNotFoundError,
  SuiteMismatchError,
  TenantMismatchError,
  UnknownSchemaVersionError,
  UnreadableRunError,
} from '../../src/errors.js'
import type { ResultStore } from '../../src/store/result-store.js'
import { createdAtSeconds, keyOf, makeRun } from '../helpers/make-run.js'

export interface ContractSubject {
  store: ResultStore
  plantRaw(tenant: string, suite: string, fileKey: string, bytes: string): unknown
  snapshot(): unknown
  /** An absolute path outside the store, tried as a hostile name. */
  outsidePath?: string
  cleanup(): unknown
}

type ErrorClass = abstract new (...args: never[]) => DiglineError

export const HOSTILE_NAMES: readonly string[] = [
  '..',
  '.',
  '',
  'a/b',
  '../escape',
  '/abs',
  'a\\b',
  'a\0b',
  'x'.repeat(200),
  'x'.repeat(129),
  '.hidden',
  '-rf',
  'with space',
  'tab\there',
  'new\nline',
  'ü',
]

export async function refusalOf(promise: Promise<unknown>, expected: ErrorClass): Promise<DiglineError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected a refusal').toBeInstanceOf(expected)
  const refusal = error as DiglineError
  expect(refusal.message).toContain('next: ')
  return refusal
}

function headerOf(doc: RunDocument): Record<string, unknown> {
  const header: Record<string, unknown> = {}
  for (const key of HEADER_KEYS) if (doc[key] !== undefined) header[key] = doc[key]
  return header
}

export function runResultStoreContract(label: string, makeSubject: () => ContractSubject | Promise<ContractSubject>): void {
  describe(`${label} — ResultStore contract`, () => {
    let subject: ContractSubject
    let store: ResultStore

    beforeEach(async () => {
      subject = await makeSubject()
      store = subject.store
    })
    afterEach(async () => {
      await subject.cleanup()
    })

    /** Runs the refusal and asserts that the store (and around it) is exactly as before. */
    async function refusedWithoutChange(action: () => Promise<unknown>, expected: ErrorClass): Promise<DiglineError> {
      const before = await subject.snapshot()
      const refusal = await refusalOf(action(), expected)
      expect(await subject.snapshot()).toEqual(before)
      return refusal
    }

    describe('round trip', () => {
      it('writes a run under its key and reads the same document back', async () => {
        const doc = makeRun({ results: 5 })
        const stored = await store.writeRun(doc)
        expect(stored).toMatchObject({ tenant: 'acme', suite: 'capitals', key: '20261129T223956123456Z-3f9a0c1b2d4e' })
        expect(await store.readRun('acme', 'capitals', stored.key)).toEqual(doc)
      })

      it('replaces the document when the same key is written again', async () => {
        await store.writeRun(makeRun({ results: 2 }))
        const second = makeRun({ results: 4, metadata: { second: true } })
        await store.writeRun(second)
        expect(await store.readRun('acme', 'capitals', keyOf(second))).toEqual(second)
        expect((await store.listRuns('acme', 'capitals')).runs).toHaveLength(1)
      })

      it('keeps optional header fields and an empty result list', async () => {
        const doc = { ...makeRun({ results: 0 }), rejudged_from: '20261129T223955000001Z-aaaaaaaaaaaa', rejudged_from_suite: 'capitals', git_commit: 'abc123-dirty' }
        await store.writeRun(doc)
        expect(await store.readRun('acme', 'capitals', keyOf(doc))).toEqual(doc)
      })

      it('lists headers in key order, whatever the write order', async () => {
        const stamps = createdAtSeconds(4)
        const docs = [2, 0, 3, 1].map((i) => makeRun({ createdAt: stamps[i] }))
        for (const doc of docs) await store.writeRun(doc)
        const listing = await store.listRuns('acme', 'capitals')
        expect(listing).toMatchObject({ tenant: 'acme', suite: 'capitals' })
        expect(listing.runs.map((r) => r.key)).toEqual(stamps.map((s) => keyOf(makeRun({ createdAt: s }))))
        for (const run of listing.runs) {
          const doc = docs.find((d) => keyOf(d) === run.key)!
          expect(run.refusal).toBeUndefined()
          expect(run.header).toEqual(headerOf(doc))
          if (run.refusal === undefined && run.aggregates !== undefined) expect(run.aggregates).toEqual(doc.aggregates)
        }
      })

      it('scans whole documents in key order, and names the latest key', async () => {
        const stamps = createdAtSeconds(3)
        for (const stamp of [stamps[1], stamps[2], stamps[0]]) await store.writeRun(makeRun({ createdAt: stamp, results: 2 }))
        const scan = await store.scanRuns('acme', 'capitals')
        expect(scan.refused).toEqual([])
        expect(scan.runs).toEqual(stamps.map((s) => makeRun({ createdAt: s, results: 2 })))
        expect(await store.latestKey('acme', 'capitals')).toBe(keyOf(makeRun({ createdAt: stamps[2] })))
      })

      it('keeps tenants and suites apart', async () => {
        await store.writeRun(makeRun({ tenant: 'acme', suite: 'capitals' }))
        await store.writeRun(makeRun({ tenant: 'acme', suite: 'rivers' }))
        await store.writeRun(makeRun({ tenant: 'globex', suite: 'capitals', createdAt: createdAtSeconds(1)[0] }))
        expect((await store.listRuns('acme', 'capitals')).runs).toHaveLength(1)
        expect((await store.listRuns('acme', 'rivers')).runs).toHaveLength(1)
        expect((await store.scanRuns('globex', 'capitals')).runs.map((d) => d.tenant)).toEqual(['globex'])
      })

      it('has an empty listing, no scan and no latest key for a suite or tenant with no runs, and creates nothing', async () => {
        const before = await subject.snapshot()
        expect(await store.listRuns('acme', 'capitals')).toEqual({ tenant: 'acme', suite: 'capitals', runs: [] })
        expect(await store.scanRuns('nobody', 'nothing')).toEqual({ tenant: 'nobody', suite: 'nothing', runs: [], refused: [] })
        expect(await store.latestKey('acme', 'capitals')).toBeUndefined()
        expect(await subject.snapshot()).toEqual(before)
      })
    })

    describe('refusals (nothing changes)', () => {
      const hostile = (): string[] => [...HOSTILE_NAMES, ...(subject.outsidePath === undefined ? [] : [subject.outsidePath])]

      it.each(['tenant', 'suite'] as const)('refuses every hostile %s name before any I/O, for every operation', async (field) => {
        await store.writeRun(makeRun())
        for (const name of hostile()) {
          const names = { tenant: 'acme', suite: 'capitals', [field]: name }
          await refusedWithoutChange(() => store.writeRun(makeRun(names)), PathRefusedError)
          await refusedWithoutChange(() => store.readRun(names.tenant, names.suite, keyOf(makeRun())), PathRefusedError)
          await refusedWithoutChange(() => store.listRuns(names.tenant, names.suite), PathRefusedError)
          await refusedWithoutChange(() => store.scanRuns(names.tenant, names.suite), PathRefusedError)
          await refusedWithoutChange(() => store.latestKey(names.tenant, names.suite), PathRefusedError)
        }
      })

      it('refuses every hostile key on read, and a created_at that is not a timestamp (so no key) on write', async () => {
        await store.writeRun(makeRun())
        for (const name of hostile()) {
          await refusedWithoutChange(() => store.readRun('acme', 'capitals', name), PathRefusedError)
        }
        for (const createdAt of ['2026/../../x', '../../../outside', '', 'x'.repeat(150)]) {
          const refusal = await refusedWithoutChange(() => store.writeRun({ ...makeRun(), created_at: createdAt }), InternalError)
          expect(refusal.path).toEqual(['created_at'])
        }
      })

      it('does not write a document that does not match the schema: a defect of its builder (InternalError), naming the field', async () => {
        const doc = makeRun()
        const broken = { ...doc, aggregates: { ...doc.aggregates, pass_rate: 7 } }
        const refusal = await refusedWithoutChange(() => store.writeRun(broken), InternalError)
        expect(refusal.message).toContain('aggregates.pass_rate')
        expect(refusal.path).toEqual(['aggregates', 'pass_rate'])
      })

      it('refuses a missing run, naming `digline list --suite S`', async () => {
        await store.writeRun(makeRun())
        const refusal = await refusedWithoutChange(() => store.readRun('acme', 'capitals', '20260101T000000000000Z-000000000000'), RunNotFoundError)
        expect(refusal.message).toContain('digline list --suite capitals')
      })

      it('refuses a misfiled run by name everywhere, naming both keys, and still lists the readable ones', async () => {
        const filed = makeRun()
        await store.writeRun(filed)
        const stray = makeRun({ createdAt: createdAtSeconds(1)[0] })
        const wrongKey = '20270101T000000000000Z-3f9a0c1b2d4e'
        await subject.plantRaw('acme', 'capitals', wrongKey, serializeRun(stray))
        const refusal = await refusedWithoutChange(() => store.readRun('acme', 'capitals', wrongKey), MisfiledRunError)
        expect(refusal.message).toContain(wrongKey)
        expect(refusal.message).toContain(keyOf(stray))

        const before = await subject.snapshot()
        const listing = await store.listRuns('acme', 'capitals')
        expect(listing.runs.map((r) => [r.key, r.refusal?.name])).toEqual([
          [keyOf(filed), undefined],
          [keyOf(stray), 'MisfiledRunError'],
        ])
        const scan = await store.scanRuns('acme', 'capitals')
        expect(scan.runs).toEqual([filed])
        expect(scan.refused.map((r) => r.refusal.name)).toEqual(['MisfiledRunError'])
        expect(await store.latestKey('acme', 'capitals')).toBe(keyOf(filed))
        expect(await subject.snapshot()).toEqual(before)
      })

      const planted: [string, () => string, ErrorClass, string][] = [
        ['of another tenant', () => serializeRun(makeRun({ tenant: 'globex' })), TenantMismatchError, 'globex'],
        ['of another suite', () => serializeRun(makeRun({ suite: 'rivers' })), SuiteMismatchError, 'rivers'],
        ['at an unknown schema_version', () => serializeRun(makeRun()).replace('"schema_version": 1,', '"schema_version": 2,'), UnknownSchemaVersionError, 'schema_version is 2'],
        ['that is not JSON', () => 'this is not { json', UnreadableRunError, 'not JSON'],
        ['that is an empty file', () => '', UnreadableRunError, 'not JSON'],
        ['that is JSON but not an object', () => '[1, 2, 3]', UnreadableRunError, 'not a JSON object'],
        ['with a header field of the wrong type', () => serializeRun(makeRun()).replace('"config_hash": "3f9a0c1b2d4e"', '"config_hash": "NOT-HEX"'), UnreadableRunError, 'config_hash'],
        ['with a missing header field', () => serializeRun(makeRun()).replace(/\n {2}"environment": [^\n]*/, ''), UnreadableRunError, 'environment'],
      ]

      it.each(planted)('refuses a document %s by name in readRun, listRuns and scanRuns', async (_what, bytes, expected, fragment) => {
        const sibling = makeRun({ createdAt: createdAtSeconds(1)[0] })
        await store.writeRun(sibling)
        const key = keyOf(makeRun())
        await subject.plantRaw('acme', 'capitals', key, bytes())
        const refusal = await refusedWithoutChange(() => store.readRun('acme', 'capitals', key), expected)
        expect(refusal.message).toContain(fragment)
        expect(refusal.message).toContain(key)

        const before = await subject.snapshot()
        const listing = await store.listRuns('acme', 'capitals')
        expect(listing.runs.map((r) => r.refusal?.name)).toEqual([undefined, expected.name])
        expect(listing.runs[0]?.key).toBe(keyOf(sibling))
        expect(listing.runs[1]?.refusal?.exitCode).toBe(64)
        const scan = await store.scanRuns('acme', 'capitals')
        expect(scan.runs).toEqual([sibling])
        expect(scan.refused.map((r) => r.refusal.name)).toEqual([expected.name])
        expect(await store.latestKey('acme', 'capitals')).toBe(keyOf(sibling))
        expect(await subject.snapshot()).toEqual(before)
      })

      it('lists a run whose results are garbage after the header, but refuses to read or scan it', async () => {
        const doc = makeRun({ results: 20 })
        const text = serializeRun(doc)
        const resultsAt = text.indexOf('\n  "results": ')
        await subject.plantRaw('acme', 'capitals', keyOf(doc), `${text.slice(0, resultsAt)}\n  "results": [{{{ garbage \u0000\u0001 not json`)
        const listing = await store.listRuns('acme', 'capitals')
        expect(listing.runs).toHaveLength(1)
        expect(listing.runs[0]?.refusal).toBeUndefined()
        expect(listing.runs[0]?.header).toEqual(headerOf(doc))
        await refusedWithoutChange(() => store.readRun('acme', 'capitals', keyOf(doc)), UnreadableRunError)
        expect((await store.scanRuns('acme', 'capitals')).refused.map((r) => r.refusal.name)).toEqual(['UnreadableRunError'])
      })
    })
  })
}
