// A run document is written as a stream of its lines, in chunks of about 64 KiB, through the atomic
// writer: the bytes are those serializeRun gives, and a failure mid-stream (a disk that fills up
// after some chunks are on it) leaves no document and no temp file. The disk-full case needs root
// to mount a tmpfs; without it the test fails rather than skips.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CaseResult, RunDocument } from '../../src/document/schema.js'
import { runLines, serializeRun } from '../../src/document/serialize.js'
import { StoreWriteError, UnreadableRunError } from '../../src/store/errors.js'
import { STREAM_CHUNK_CHARS, writeFileAtomic } from '../../src/store/file/atomic-write.js'
import { nodeFsLayer, type FileHandle, type FsLayer } from '../../src/store/file/fs-layer.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { validateDocument } from '../../src/store/run-checks.js'
import { checkRunToWrite } from '../../src/store/run-to-write.js'
import { keyOf, makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { refusalOf } from './contract.js'
import { snapshotTree, tempFilesIn } from './tree-snapshot.js'

/** The real layer, recording the size of every write to a run document's temp file and whether it succeeded. */
function countingLayer(): { fs: FsLayer; writes: { bytes: number; ok: boolean }[] } {
  const temps = new Set<FileHandle>()
  const writes: { bytes: number; ok: boolean }[] = []
  const fs: FsLayer = {
    ...nodeFsLayer,
    async open(path, flags, mode) {
      const handle = await nodeFsLayer.open(path, flags, mode)
      if (basename(path).endsWith('.tmp') && basename(path).includes('.json.')) temps.add(handle)
      return handle
    },
    async write(handle, data, offset, length) {
      if (!temps.has(handle)) return nodeFsLayer.write(handle, data, offset, length)
      try {
        const written = await nodeFsLayer.write(handle, data, offset, length)
        writes.push({ bytes: written, ok: true })
        return written
      } catch (error) {
        writes.push({ bytes: length, ok: false })
        throw error
      }
    },
  }
  return { fs, writes }
}

/** A run whose reasons mix one-, two-, three- and four-byte characters; some lines are longer than a chunk. */
function mixedRun(results: number): RunDocument {
  const doc = makeRun({ results, reasonLength: 40 })
  const reasons = ['plain', 'é'.repeat(900), '€ and 😀 '.repeat(30), 'x'.repeat(3 * STREAM_CHUNK_CHARS)]
  return { ...doc, results: doc.results.map((r, i) => ({ ...r, reason: `${i}: ${reasons[i % reasons.length]}` })) }
}

describe('the document as a stream of lines', () => {
  it('runLines gives, line by line, the bytes of serializeRun', () => {
    for (const doc of [makeRun({ results: 0 }), makeRun({ results: 1 }), mixedRun(9)]) {
      const lines = [...runLines(doc)]
      expect(lines.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true)
      expect(lines.join('')).toBe(serializeRun(doc))
      expect(lines.length).toBe(serializeRun(doc).split('\n').length - 1)
    }
  })
})

describe('writing a run document in chunks', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'digline-stream-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('writes a large document in writes of about 64 KiB, byte for byte what serializeRun gives', async () => {
    const { fs, writes } = countingLayer()
    const store = new FileResultStore({ root: join(dir, '.digline'), fs })
    const doc = makeRun({ results: 4000, reasonLength: 200 })
    const expected = serializeRun(doc)
    const longestLine = Math.max(...[...runLines(doc)].map((line) => Buffer.byteLength(line)))
    const stored = await store.writeRun(doc)
    expect(readFileSync(stored.location, 'utf8')).toBe(expected)
    expect(writes.every((w) => w.ok)).toBe(true)
    expect(writes.reduce((sum, w) => sum + w.bytes, 0)).toBe(Buffer.byteLength(expected))
    expect(writes.length).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(expected) / (STREAM_CHUNK_CHARS + longestLine)))
    for (const w of writes) expect(w.bytes).toBeLessThan(STREAM_CHUNK_CHARS + longestLine)
  })

  it('keeps multi-byte characters and lines longer than a chunk whole', async () => {
    const store = new FileResultStore({ root: join(dir, '.digline') })
    const doc = mixedRun(41)
    const stored = await store.writeRun(doc)
    expect(readFileSync(stored.location, 'utf8')).toBe(serializeRun(doc))
    expect(await store.readRun('acme', 'capitals', keyOf(doc))).toEqual(doc)
  })

  it('an iterable that throws half-way fails the write: no file, no temp file', async () => {
    const target = join(dir, 'k.json')
    function* failing(): Generator<string> {
      yield 'x'.repeat(STREAM_CHUNK_CHARS * 2)
      throw Object.assign(new Error('EIO: the producer broke'), { code: 'EIO' })
    }
    const error = (await refusalOf(writeFileAtomic(nodeFsLayer, target, failing()), StoreWriteError)) as StoreWriteError
    expect(error.errno).toBe('EIO')
    expect(snapshotTree(dir)).toEqual([{ path: '.', type: 'dir' }])
  })
})

describe('a disk that fills up in the middle of the stream (256 KiB tmpfs)', () => {
  let tmpfs: Tmpfs
  beforeEach(() => {
    tmpfs = mountTmpfs('256k')
  })
  afterEach(() => tmpfs.unmount())

  it('fails with StoreWriteError ENOSPC after some chunks were written, and leaves no document and no temp file', async () => {
    const root = join(tmpfs.dir, '.digline')
    const previous = makeRun({ results: 3 })
    await new FileResultStore({ root }).writeRun(previous)
    const previousFile = join(root, 'acme', 'runs', 'capitals', `${keyOf(previous)}.json`)
    const previousBytes = readFileSync(previousFile)
    const before = snapshotTree(tmpfs.dir)

    const { fs, writes } = countingLayer()
    const big = { ...makeRun({ results: 5000, reasonLength: 200 }), created_at: '2026-11-29T22:40:00.000001Z' }
    expect(Buffer.byteLength(serializeRun(big))).toBeGreaterThan(1_000_000)
    const error = (await refusalOf(new FileResultStore({ root, fs }).writeRun(big), StoreWriteError)) as StoreWriteError
    expect(error.errno).toBe('ENOSPC')
    expect(writes.filter((w) => w.ok).length).toBeGreaterThanOrEqual(2)
    expect(writes.at(-1)?.ok === false || writes.at(-1)!.bytes < STREAM_CHUNK_CHARS).toBe(true)
    expect(snapshotTree(tmpfs.dir)).toEqual(before)
    expect(tempFilesIn(snapshotTree(tmpfs.dir))).toEqual([])
    expect(readFileSync(previousFile).equals(previousBytes)).toBe(true)
  })
})

describe('what writeRun checks of a document handed to it', () => {
  it('checks the results without copying them, and parses only the header and aggregates', () => {
    const doc = makeRun({ results: 5 })
    const { head, results } = checkRunToWrite(doc, 'a run document of suite "capitals"')
    expect(results).toBe(doc.results)
    expect(head).not.toBe(doc)
    expect(head).not.toHaveProperty('results')
    expect([...runLines(head, results)].join('')).toBe(serializeRun(doc))
  })

  it('writes the header and aggregates in schema order with unknown keys dropped, as the whole-document parse did', () => {
    const doc = makeRun({ results: 2 })
    const { samples_per_case, cases, ...aggregates } = doc.aggregates
    const shuffled = { ...doc, aggregates: { extra: 1, ...aggregates, cases, samples_per_case }, rules: { ...doc.rules, stray: true } } as unknown as RunDocument
    const { head, results } = checkRunToWrite(shuffled, 'a run document')
    expect([...runLines(head, results)].join('')).toBe(serializeRun(validateDocument(shuffled, 'a run document', 'write')))
    expect([...runLines(head, results)].join('')).toBe(serializeRun(doc))
  })

  it('refuses a bad document with the message and path of the whole-document check', () => {
    const good = makeRun({ results: 6 })
    const badResult = (patch: Partial<CaseResult>): RunDocument => ({ ...good, results: good.results.map((r, i) => (i === 4 ? { ...r, ...patch } : r)) })
    const holes: unknown[] = [good.results[0]!]
    holes[2] = good.results[1]!
    const sparse = { ...good, results: holes } as unknown as RunDocument
    const cases: unknown[] = [
      null,
      [],
      { ...good, results: undefined },
      { ...good, results: 'none' },
      { ...good, config_hash: 'nope' },
      { ...good, aggregates: { ...good.aggregates, pass_rate: 2 } },
      badResult({ score: 1.5 }),
      badResult({ verdict: 'maybe' as CaseResult['verdict'] }),
      badResult({ samples: [{ pass: true, score: Number.NaN, scorers: [] }] }),
      sparse,
    ]
    for (const value of cases) {
      const expected = (() => {
        try {
          validateDocument(value, 'a run document', 'write')
        } catch (error) {
          return error as UnreadableRunError
        }
        throw new Error(`the whole-document check accepted ${JSON.stringify(value)}`)
      })()
      expect(() => checkRunToWrite(value as RunDocument, 'a run document')).toThrow(expected)
      try {
        checkRunToWrite(value as RunDocument, 'a run document')
      } catch (error) {
        expect(error).toBeInstanceOf(UnreadableRunError)
        expect((error as UnreadableRunError).message).toBe(expected.message)
        expect((error as UnreadableRunError).path).toEqual(expected.path)
      }
    }
  })
})
