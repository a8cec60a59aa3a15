// beneath-root: a listing or a delete holds the directories it reads open for its length and reaches
// every file from them (counted through a layer wrapping the real one), a directory swapped for a
// symlink while it is held is never followed, and the bench's unguarded layer is passed through.
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { constants } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { beneathRoot, holdingDirectory, withoutSymlinkGuard } from '../../src/store/file/beneath-root.js'
import { nodeFsLayer, type FsLayer } from '../../src/store/file/fs-layer.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { createdAtSeconds, keyOf, makeRun } from '../helpers/make-run.js'
import { makeTempStore, SENTINEL_TEXT, type TempStore } from './temp-store.js'

/** nodeFsLayer, noting every path it opens as a directory and every path any call is given. */
function countingFs(): FsLayer & { directoryOpens: string[]; paths: string[] } {
  const directoryOpens: string[] = []
  const paths: string[] = []
  const noted =
    <A extends unknown[], R>(call: (path: string, ...rest: A) => Promise<R>) =>
    (path: string, ...rest: A): Promise<R> => {
      paths.push(path)
      return call(path, ...rest)
    }
  return {
    ...nodeFsLayer,
    directoryOpens,
    paths,
    open: (path, flags, mode) => {
      paths.push(path)
      if ((flags & constants.O_DIRECTORY) !== 0) directoryOpens.push(path)
      return nodeFsLayer.open(path, flags, mode)
    },
    // the guard's walk steps through directories on the calling thread (ADR 0555)
    openDirectorySync: (path, flags) => {
      paths.push(path)
      if ((flags & constants.O_DIRECTORY) !== 0) directoryOpens.push(path)
      return nodeFsLayer.openDirectorySync(path, flags)
    },
    lstat: noted(nodeFsLayer.lstat),
    readdir: noted(nodeFsLayer.readdir),
    readPrefix: noted(nodeFsLayer.readPrefix),
    readFile: noted(nodeFsLayer.readFile),
  }
}

describe('directories held open for an operation', () => {
  let temp: TempStore
  let fs: ReturnType<typeof countingFs>
  beforeEach(() => {
    fs = countingFs()
    temp = makeTempStore({ fs })
  })
  afterEach(() => temp.cleanup())

  const rootOpens = () => fs.directoryOpens.filter((path) => path === resolve(temp.root)).length

  async function fill(suite: string, count: number, from = 0): Promise<void> {
    for (const createdAt of createdAtSeconds(from + count).slice(from)) await temp.store.writeRun(makeRun({ suite, createdAt }))
  }

  it('listRuns walks from the store root a fixed number of times, however many documents the suite holds', async () => {
    await fill('capitals', 4)
    fs.directoryOpens.length = 0
    expect((await temp.store.listRuns('acme', 'capitals')).runs.filter((r) => r.refusal === undefined)).toHaveLength(4)
    const withFour = rootOpens()
    await fill('capitals', 20, 4)
    fs.directoryOpens.length = 0
    expect((await temp.store.listRuns('acme', 'capitals')).runs.filter((r) => r.refusal === undefined)).toHaveLength(24)
    expect(rootOpens()).toBe(withFour)
    expect(withFour).toBeLessThan(8)
  })

  it('the delete scan walks from the store root a fixed number of times, however many documents the tenant holds', async () => {
    const measure = async (others: number, suffix: string): Promise<number> => {
      await fill(`other-${suffix}`, others)
      const doomed = makeRun({ suite: `doomed-${suffix}` })
      await temp.store.writeRun(doomed)
      fs.directoryOpens.length = 0
      const removal = await temp.store.deleteRun('acme', `doomed-${suffix}`, keyOf(doomed))
      expect(removal.run.document).toBe(true)
      return rootOpens()
    }
    const few = await measure(3, 'a')
    const many = await measure(30, 'b')
    // the second tenant holds two more suite directories (one walk each, in the plan and the second
    // look), and not one walk more for its 30 documents
    expect(many - few).toBeLessThanOrEqual(4)
  })

  it('assertInsideStore opens each directory on its way once, not once per component below it', async () => {
    await fill('capitals', 1)
    const leg = join(temp.root, 'acme', 'runs', 'capitals', '.pending', 'k.1.jsonl')
    mkdirSync(join(temp.root, 'acme', 'runs', 'capitals', '.pending'))
    writeFileSync(leg, '')
    fs.directoryOpens.length = 0
    await temp.store.paths.assertInsideStore(beneathRoot(fs, temp.root), leg)
    // root, acme, runs, capitals, .pending: one open each, and the root once more for the first lstat
    expect(fs.directoryOpens).toHaveLength(6)
  })

  it('reaches each document of a held suite directory by its name under that one descriptor', async () => {
    await fill('capitals', 3)
    fs.paths.length = 0
    await temp.store.listRuns('acme', 'capitals')
    const reads = fs.paths.filter((path) => path.endsWith('.json'))
    expect(reads.length).toBeGreaterThanOrEqual(6)
    const descriptors = new Set(reads.map((path) => /^\/proc\/self\/fd\/(\d+)\/[^/]+\.json$/.exec(path)?.[1]))
    expect(descriptors.size).toBe(1)
    expect(descriptors.has(undefined)).toBe(false)
  })
})

describe('holdingDirectory', () => {
  let temp: TempStore
  beforeEach(() => {
    temp = makeTempStore()
  })
  afterEach(() => temp.cleanup())

  function layout(): { guarded: FsLayer; dir: string } {
    const dir = join(temp.root, 'acme', 'runs', 'capitals')
    mkdirSync(join(dir, 'sub'), { recursive: true })
    writeFileSync(join(dir, 'a.json'), 'inside\n')
    writeFileSync(join(temp.outside, 'a.json'), SENTINEL_TEXT)
    return { guarded: beneathRoot(nodeFsLayer, temp.root), dir }
  }

  it('keeps reading the directory it held when that directory is swapped for a symlink out of the store', async () => {
    const { guarded, dir } = layout()
    const read = await holdingDirectory(guarded, dir, async (held) => {
      renameSync(dir, `${dir}.moved-aside`)
      symlinkSync(temp.outside, dir)
      return { names: await held.readdir(dir), text: (await held.readFile(join(dir, 'a.json'))).toString('utf8') }
    })
    expect(read.text).toBe('inside\n')
    expect(read.names.sort()).toEqual(['a.json', 'sub'])
    // once released, the symlink is not followed (O_NOFOLLOW on a directory: ENOTDIR)
    await expect(guarded.readFile(join(dir, 'a.json'))).rejects.toMatchObject({ code: 'ENOTDIR' })
  })

  it('reaches a name spelled with . or .. through the held directory too, as a plainly spelled one', async () => {
    const { guarded, dir } = layout()
    const texts = await holdingDirectory(guarded, dir, async (held) => {
      renameSync(dir, `${dir}.moved-aside`)
      symlinkSync(temp.outside, dir)
      const spellings = [`${dir}/a.json`, `${dir}/./a.json`, `${dir}/sub/../a.json`, `${dir}//a.json`]
      return Promise.all(spellings.map(async (path) => (await held.readFile(path)).toString('utf8')))
    })
    expect(texts).toEqual(['inside\n', 'inside\n', 'inside\n', 'inside\n'])
  })

  it('never follows a directory below the held one that became a symlink', async () => {
    const { guarded, dir } = layout()
    await holdingDirectory(guarded, dir, async (held) => {
      renameSync(join(dir, 'sub'), join(dir, 'sub.moved-aside'))
      symlinkSync(temp.outside, join(dir, 'sub'))
      await expect(held.readFile(join(dir, 'sub', 'a.json'))).rejects.toMatchObject({ code: 'ENOTDIR' })
      await expect(held.readdir(join(dir, 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' })
    })
    expect(readFileSync(join(temp.outside, 'a.json'), 'utf8')).toBe(SENTINEL_TEXT)
  })

  it('hands over the layer as it is when the directory is not there, so its own operations meet ENOENT', async () => {
    const { guarded } = layout()
    const missing = join(temp.root, 'acme', 'runs', 'nowhere')
    const error = await holdingDirectory(guarded, missing, (held) => held.readdir(missing)).catch((e: unknown) => e)
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT')
  })

  it('withoutSymlinkGuard gives a layer beneathRoot passes through: paths reach the disk as they are named', async () => {
    const fs = countingFs()
    const store = new FileResultStore({ root: temp.root, fs: withoutSymlinkGuard(fs) })
    await store.writeRun(makeRun())
    await store.listRuns('acme', 'capitals')
    expect(fs.paths.some((path) => path.startsWith('/proc/self/fd/'))).toBe(false)
    expect(fs.paths.some((path) => path.endsWith(`${keyOf(makeRun())}.json`))).toBe(true)
  })
})
