// FileResultStore: what only a file store has (directory entries that are not runs, the generated
// .gitignore, bounded header reads); the Store contract suite runs in file/file-store-contract.test.ts.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { STORE_GITIGNORE } from '../../src/store/file/gitignore.js'
import { nodeFsLayer, type FsLayer } from '../../src/store/file/fs-layer.js'
import { HEADER_PREFIX_BYTES } from '../../src/store/file/header-reader.js'
import { createdAtSeconds, keyOf, makeRun } from '../helpers/make-run.js'
import { makeTempStore, type TempStore } from './temp-store.js'

/** nodeFsLayer, counting every byte the store reads. */
function countingFs(): FsLayer & { bytesRead: number; wholeFileReads: number } {
  const layer = {
    ...nodeFsLayer,
    bytesRead: 0,
    wholeFileReads: 0,
    async readPrefix(path: string, maxBytes: number) {
      const prefix = await nodeFsLayer.readPrefix(path, maxBytes)
      layer.bytesRead += prefix.bytes.length
      return prefix
    },
    async readFile(path: string) {
      const bytes = await nodeFsLayer.readFile(path)
      layer.bytesRead += bytes.length
      layer.wholeFileReads += 1
      return bytes
    },
  }
  return layer
}

describe('FileResultStore on disk', () => {
  let temp: TempStore
  beforeEach(() => {
    temp = makeTempStore()
  })
  afterEach(() => temp.cleanup())

  it('files a run at <root>/<tenant>/runs/<suite>/<key>.json with the serializer’s exact bytes', async () => {
    const doc = makeRun({ results: 3 })
    const stored = await temp.store.writeRun(doc)
    const file = join(temp.root, 'acme', 'runs', 'capitals', `${keyOf(doc)}.json`)
    expect(stored.location).toBe(file)
    expect(readFileSync(file, 'utf8')).toBe(serializeRun(doc))
    expect(readdirSync(join(temp.root, 'acme', 'runs', 'capitals'))).toEqual([`${keyOf(doc)}.json`])
  })

  it('generates .gitignore with exactly "*/runs/\\n*/removed/\\n*/cache/\\n.*.tmp\\n", and leaves an existing one alone', async () => {
    await temp.store.writeRun(makeRun())
    expect(readFileSync(join(temp.root, '.gitignore'), 'utf8')).toBe('*/runs/\n*/removed/\n*/cache/\n.*.tmp\n')
    expect(STORE_GITIGNORE).toBe('*/runs/\n*/removed/\n*/cache/\n.*.tmp\n')
    writeFileSync(join(temp.root, '.gitignore'), '# mine\n*/runs/\n')
    await temp.store.writeRun(makeRun({ suite: 'rivers' }))
    expect(readFileSync(join(temp.root, '.gitignore'), 'utf8')).toBe('# mine\n*/runs/\n')
  })

  it('brings the .gitignore an earlier digline generated up to date, so the response cache stays out of git', async () => {
    await temp.store.writeRun(makeRun())
    writeFileSync(join(temp.root, '.gitignore'), '*/runs/\n*/removed/\n.*.tmp\n')
    await temp.store.writeRun(makeRun({ suite: 'rivers' }))
    expect(readFileSync(join(temp.root, '.gitignore'), 'utf8')).toBe(STORE_GITIGNORE)
  })

  it('resolves a relative root against the working directory', () => {
    expect(new FileResultStore({ root: '.digline' }).root).toBe(join(process.cwd(), '.digline'))
  })

  it('never lists temp files, dotfiles, .pending/ or other files; lists a directory named *.json as unreadable', async () => {
    const doc = makeRun()
    await temp.store.writeRun(doc)
    const dir = join(temp.root, 'acme', 'runs', 'capitals')
    writeFileSync(join(dir, `.${keyOf(doc)}.json.1234.a1b2c3d4e5f6.tmp`), '{ half a docu')
    writeFileSync(join(dir, '.hidden.json'), serializeRun(makeRun({ createdAt: createdAtSeconds(1)[0] })))
    writeFileSync(join(dir, 'notes.txt'), 'not a run')
    writeFileSync(join(dir, `${keyOf(doc)}.json.bak`), serializeRun(doc))
    mkdirSync(join(dir, '.pending'))
    writeFileSync(join(dir, '.pending', `${keyOf(doc)}.0.jsonl`), '{"journal_version":1}\n')
    mkdirSync(join(dir, '20270101T000000000000Z-000000000000.json'))
    writeFileSync(join(dir, 'not a key.json'), serializeRun(doc))

    const before = temp.snapshot()
    const listing = await temp.store.listRuns('acme', 'capitals')
    expect(listing.runs.map((r) => [r.key, r.refusal?.name, r.refusal?.message.includes(dir)])).toEqual([
      [keyOf(doc), undefined, undefined],
      [undefined, 'UnreadableRunError', true],
      [undefined, 'PathRefusedError', true],
    ])
    const scan = await temp.store.scanRuns('acme', 'capitals')
    expect(scan.runs).toEqual([doc])
    expect(scan.refused.map((r) => r.refusal.name)).toEqual(['UnreadableRunError', 'PathRefusedError'])
    expect(temp.snapshot()).toEqual(before)
  })
})

describe('listRuns reads each header from a bounded prefix', () => {
  let temp: TempStore
  let fs: ReturnType<typeof countingFs>
  beforeEach(() => {
    fs = countingFs()
    temp = makeTempStore({ fs })
  })
  afterEach(() => temp.cleanup())

  it('lists a ~2 MB document having read at most 64 KiB of it', async () => {
    const big = makeRun({ results: 8000, reasonLength: 120 })
    await temp.store.writeRun(big)
    const size = readFileSync(join(temp.root, 'acme', 'runs', 'capitals', `${keyOf(big)}.json`)).length
    expect(size).toBeGreaterThan(2_000_000)

    fs.bytesRead = 0
    const listing = await temp.store.listRuns('acme', 'capitals')
    expect(listing.runs.map((r) => [r.key, r.refusal])).toEqual([[keyOf(big), undefined]])
    const [listed] = listing.runs
    expect(listed !== undefined && listed.refusal === undefined ? listed.aggregates : undefined).toEqual(big.aggregates)
    expect(fs.bytesRead).toBeGreaterThan(0)
    expect(fs.bytesRead).toBeLessThanOrEqual(HEADER_PREFIX_BYTES)
    expect(fs.wholeFileReads).toBe(0)

    fs.bytesRead = 0
    expect(await temp.store.latestKey('acme', 'capitals')).toBe(keyOf(big))
    expect(fs.bytesRead).toBeLessThanOrEqual(HEADER_PREFIX_BYTES)
  })

  it('reads ten large documents with one bounded prefix each', async () => {
    for (const createdAt of createdAtSeconds(10)) await temp.store.writeRun(makeRun({ createdAt, results: 2000, reasonLength: 100 }))
    fs.bytesRead = 0
    const listing = await temp.store.listRuns('acme', 'capitals')
    expect(listing.runs.filter((r) => r.refusal === undefined)).toHaveLength(10)
    expect(fs.bytesRead).toBeLessThanOrEqual(10 * HEADER_PREFIX_BYTES)
    expect(fs.wholeFileReads).toBe(0)
  })
})
