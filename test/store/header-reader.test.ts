// readRunHeader: the header from a bounded prefix, documents not in digline's layout, and the
// refusals, each naming the file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HEADER_KEYS, type RunDocument } from '../../src/document/schema.js'
import { serializeRun } from '../../src/document/serialize.js'
import { UnknownSchemaVersionError, UnreadableRunError } from '../../src/store/errors.js'
import { nodeFsLayer } from '../../src/store/file/fs-layer.js'
import { HEADER_PREFIX_BYTES, HEADER_PREFIX_LIMIT_BYTES, readRunHeader } from '../../src/store/file/header-reader.js'
import { makeRun } from '../helpers/make-run.js'
import { refusalOf } from './contract.js'

function headerOf(doc: RunDocument): Record<string, unknown> {
  return Object.fromEntries(HEADER_KEYS.filter((k) => doc[k] !== undefined).map((k) => [k, doc[k]]))
}

describe('readRunHeader', () => {
  let dir: string
  const file = (name: string, text: string): string => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'digline-header-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads the header of a ~2 MB document from its first 8 KiB', async () => {
    const doc = makeRun({ results: 8000, reasonLength: 120 })
    const text = serializeRun(doc)
    expect(text.length).toBeGreaterThan(2_000_000)
    const read = await readRunHeader(nodeFsLayer, file('big.json', text))
    expect(read.header).toEqual(headerOf(doc))
    expect(read.aggregates).toEqual(doc.aggregates)
    expect(read.bytesRead).toBe(HEADER_PREFIX_BYTES)
  })

  it('reads only the file when it is smaller than the prefix', async () => {
    const text = serializeRun(makeRun())
    const read = await readRunHeader(nodeFsLayer, file('small.json', text))
    expect(read.bytesRead).toBe(Buffer.byteLength(text))
  })

  it('reads a document in another layout (compact JSON) whole when it fits the first read', async () => {
    const doc = makeRun({ results: 3 })
    const read = await readRunHeader(nodeFsLayer, file('compact.json', JSON.stringify(doc)))
    expect(read.header).toEqual(headerOf(doc))
    expect(read.aggregates).toEqual(doc.aggregates)
  })

  it('reads up to 1 MiB for a document in another layout that is larger than 64 KiB', async () => {
    const doc = makeRun({ results: 1000, reasonLength: 100 })
    const text = JSON.stringify(doc)
    expect(text.length).toBeGreaterThan(64 * 1024)
    expect(text.length).toBeLessThan(HEADER_PREFIX_LIMIT_BYTES)
    const read = await readRunHeader(nodeFsLayer, file('compact-medium.json', text))
    expect(read.header).toEqual(headerOf(doc))
    expect(read.bytesRead).toBe(HEADER_PREFIX_BYTES + 64 * 1024 + text.length)
  })

  it('first reads 8 KiB, and reads on only as far as a longer header needs', async () => {
    expect(HEADER_PREFIX_BYTES).toBe(8 * 1024)
    const doc = makeRun({ results: 2000, reasonLength: 50, metadata: { notes: 'n'.repeat(20_000) } })
    const read = await readRunHeader(nodeFsLayer, file('long-header.json', serializeRun(doc)))
    expect(read.header).toEqual(headerOf(doc))
    expect(read.aggregates).toEqual(doc.aggregates)
    expect(read.bytesRead).toBe(8 * 1024 + 64 * 1024)
  })

  it('reads on when the aggregates line runs past the first read, so a listing still shows them', async () => {
    const probe = serializeRun(makeRun({ results: 500 }))
    const aggregatesAt = probe.indexOf('\n  "aggregates": ')
    // pad the header so that its aggregates line starts 40 bytes before the end of the first read
    const doc = makeRun({ results: 500, metadata: { notes: 'n'.repeat(HEADER_PREFIX_BYTES - aggregatesAt - 40 - ',"metadata": {"notes": ""}'.length) } })
    const text = serializeRun(doc)
    const at = text.indexOf('\n  "aggregates": ')
    expect(at).toBeLessThan(HEADER_PREFIX_BYTES)
    expect(text.indexOf('\n', at + 1)).toBeGreaterThan(HEADER_PREFIX_BYTES)
    const read = await readRunHeader(nodeFsLayer, file('aggregates-across.json', text))
    expect(read.header).toEqual(headerOf(doc))
    expect(read.aggregates).toEqual(doc.aggregates)
    expect(read.bytesRead).toBe(HEADER_PREFIX_BYTES + 64 * 1024)
  })

  it('reads a header that comes late, as long as it is within 1 MiB', async () => {
    const doc = makeRun({ metadata: { notes: 'n'.repeat(200_000) } })
    const read = await readRunHeader(nodeFsLayer, file('late.json', serializeRun(doc)))
    expect(read.header).toEqual(headerOf(doc))
  })

  it('refuses a document larger than 1 MiB whose header is not found in its first 1 MiB', async () => {
    const path = file('compact-big.json', JSON.stringify(makeRun({ results: 8000, reasonLength: 150 })))
    const refusal = await refusalOf(readRunHeader(nodeFsLayer, path), UnreadableRunError)
    expect(refusal.message).toContain(path)
    expect(refusal.message).toContain(String(HEADER_PREFIX_LIMIT_BYTES))
  })

  it('refuses a header that is not JSON, naming the file', async () => {
    const text = serializeRun(makeRun()).replace('"environment": "local",', '"environment": local,')
    const path = file('bad-header.json', text)
    const refusal = await refusalOf(readRunHeader(nodeFsLayer, path), UnreadableRunError)
    expect(refusal.message).toContain(path)
    expect(refusal.message).toContain('not JSON')
  })

  it('refuses a header that does not match the schema, naming the file and the zod path', async () => {
    const text = serializeRun(makeRun()).replace('"min_agreement":1', '"min_agreement":"all"')
    const path = file('bad-rules.json', text)
    const refusal = await refusalOf(readRunHeader(nodeFsLayer, path), UnreadableRunError)
    expect(refusal.message).toContain(path)
    expect(refusal.message).toContain('rules.min_agreement')
    expect(refusal.path).toEqual(['rules', 'min_agreement'])
  })

  it('refuses a schema_version it cannot read by name, and a non-number schema_version as unreadable', async () => {
    const text = serializeRun(makeRun())
    await refusalOf(readRunHeader(nodeFsLayer, file('v99.json', text.replace('"schema_version": 1', '"schema_version": 99'))), UnknownSchemaVersionError)
    await refusalOf(readRunHeader(nodeFsLayer, file('v-str.json', text.replace('"schema_version": 1', '"schema_version": "1"'))), UnreadableRunError)
  })

  it('never parses results: garbage after the header does not matter', async () => {
    const doc = makeRun({ results: 5 })
    const text = serializeRun(doc)
    const cut = text.indexOf('\n  "results": ')
    const read = await readRunHeader(nodeFsLayer, file('garbage.json', `${text.slice(0, cut)}\n\u0000\u0001 garbage ]]]`))
    expect(read.header).toEqual(headerOf(doc))
    expect(read.aggregates).toEqual(doc.aggregates)
  })

  it('lists aggregates that are cut off or invalid as absent, never as a refusal', async () => {
    const doc = makeRun()
    const text = serializeRun(doc)
    const marker = text.indexOf('"aggregates": ') + '"aggregates": '.length
    const cutOff = await readRunHeader(nodeFsLayer, file('agg-cut.json', `${text.slice(0, marker)}{"cases": 3`))
    expect(cutOff.header).toEqual(headerOf(doc))
    expect(cutOff.aggregates).toBeUndefined()
    const invalid = await readRunHeader(nodeFsLayer, file('agg-bad.json', text.replace('"cases":3', '"cases":-1')))
    expect(invalid.aggregates).toBeUndefined()
  })
})
