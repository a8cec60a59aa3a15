// File store only: documents planted by hand where the store keeps runs (misfiled, of another
// tenant or suite, unknown schema, not JSON…) are refused by name in every reader, and nothing changes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serializeRun } from '../../../src/document/serialize.js'
import { MisfiledRunError, SuiteMismatchError, TenantMismatchError, UnknownSchemaVersionError, UnreadableRunError } from '../../../src/store/errors.js'
import type { FileResultStore } from '../../../src/store/file/store.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { headerOf, refusedWithoutChange, type ContractSubject, type ErrorClass } from '../contract/harness.js'
import { makeTempStore, type TempStore } from '../temp-store.js'

describe('FileResultStore: planted documents', () => {
  let temp: TempStore
  let store: FileResultStore
  let subject: ContractSubject
  beforeEach(() => {
    temp = makeTempStore()
    store = temp.store
    subject = { store, locator: temp.root, snapshot: () => temp.snapshot(), cleanup: () => temp.cleanup() }
  })
  afterEach(() => temp.cleanup())
  const plantRaw = (tenant: string, suite: string, fileKey: string, bytes: string) => temp.plant(tenant, suite, fileKey, bytes)
  it('refuses a misfiled run by name everywhere, naming both keys, and still lists the readable ones', async () => {
    const filed = makeRun()
    await store.writeRun(filed)
    const stray = makeRun({ createdAt: createdAtSeconds(1)[0] })
    const wrongKey = '20270101T000000000000Z-3f9a0c1b2d4e'
    plantRaw('acme', 'capitals', wrongKey, serializeRun(stray))
    const refusal = await refusedWithoutChange(subject, () => store.readRun('acme', 'capitals', wrongKey), MisfiledRunError)
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
    [
      'with a header field of the wrong type',
      () => serializeRun(makeRun()).replace('"config_hash": "3f9a0c1b2d4e"', '"config_hash": "NOT-HEX"'),
      UnreadableRunError,
      'config_hash',
    ],
    ['with a missing header field', () => serializeRun(makeRun()).replace(/\n {2}"environment": [^\n]*/, ''), UnreadableRunError, 'environment'],
  ]

  it.each(planted)('refuses a document %s by name in readRun, listRuns and scanRuns', async (_what, bytes, expected, fragment) => {
    const sibling = makeRun({ createdAt: createdAtSeconds(1)[0] })
    await store.writeRun(sibling)
    const key = keyOf(makeRun())
    plantRaw('acme', 'capitals', key, bytes())
    const refusal = await refusedWithoutChange(subject, () => store.readRun('acme', 'capitals', key), expected)
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
    plantRaw('acme', 'capitals', keyOf(doc), `${text.slice(0, resultsAt)}\n  "results": [{{{ garbage \u0000\u0001 not json`)
    const listing = await store.listRuns('acme', 'capitals')
    expect(listing.runs).toHaveLength(1)
    expect(listing.runs[0]?.refusal).toBeUndefined()
    expect(listing.runs[0]?.header).toEqual(headerOf(doc))
    await refusedWithoutChange(subject, () => store.readRun('acme', 'capitals', keyOf(doc)), UnreadableRunError)
    expect((await store.scanRuns('acme', 'capitals')).refused.map((r) => r.refusal.name)).toEqual(['UnreadableRunError'])
  })
  it('reads a hand-edited document (an unknown key, keys out of order) as the schema gives it: stripped and in schema order', async () => {
    const doc = makeRun({ results: 3 })
    const text = serializeRun(doc)
      .replace('{"case_id":"case-00001","verdict":"pass",', '{"verdict":"pass","case_id":"case-00001","note":"added by hand",')
      .replace('"thresholds":{"pass_rate":0.8}', '"thresholds":{"pass_rate":0.8},"extra":1')
    plantRaw('acme', 'capitals', keyOf(doc), text)
    const read = await store.readRun('acme', 'capitals', keyOf(doc))
    expect(read).toStrictEqual(doc)
    expect(Object.keys(read.results[1]!)).toEqual(Object.keys(doc.results[1]!))
  })
})
