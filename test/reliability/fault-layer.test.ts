// The fault layer itself (test/helpers/fault-fs.ts, durability-model.ts): it fails the operation it
// is told to, a crash stops every later one, a power loss keeps exactly what was made durable, and
// the crash-point harness notices a store that skips its fsyncs. A harness that cannot fail proves
// nothing, so this file shows it failing on purpose.
import { constants, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { FsLayer } from '../../src/store/file/fs-layer.js'
import { CrashError, FaultFs } from '../helpers/fault-fs.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { durableCases, exercisePoints } from './support/crash-driver.js'
import { copyWorld, dropWorld, launch, makeWorld, recoverRun, settledTree, type Launched } from './support/run-scenario.js'

const CREATE = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY
let disk: Tmpfs
beforeAll(() => {
  disk = mountTmpfs('16m')
})
afterAll(() => disk.unmount())

async function writeFile(fs: FsLayer, path: string, text: string, options: { fsync: boolean }): Promise<void> {
  const handle = await fs.open(path, CREATE, 0o644)
  await fs.write(handle, Buffer.from(text), 0, text.length)
  if (options.fsync) await fs.fsync(handle)
  await fs.close(handle)
}

async function fsyncDir(fs: FsLayer, dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY)
  await fs.fsync(handle)
  await fs.close(handle)
}

describe('failing and crashing on purpose', () => {
  test('the Nth mutating operation fails with the errno asked for; reads are not counted', async () => {
    const world = makeWorld(disk.dir)
    const fs = new FaultFs({ fault: { kind: 'errno', at: 2, code: 'EIO' } })
    const file = join(world.dir, 'a.txt')
    const handle = await fs.open(file, CREATE, 0o644)
    await fs.lstat(file)
    await fs.write(handle, Buffer.from('abc'), 0, 3)
    await expect(fs.fsync(handle)).rejects.toMatchObject({ code: 'EIO' })
    await fs.close(handle)
    expect(fs.mutations.map((e) => e.op)).toEqual(['open', 'write', 'fsync'])
    dropWorld(world)
  })

  test('a short write takes half the bytes, and the next write gets the errno', async () => {
    const world = makeWorld(disk.dir)
    const fs = new FaultFs({ fault: { kind: 'errno', at: 1, code: 'ENOSPC', shortWrite: true } })
    const file = join(world.dir, 'a.txt')
    const handle = await fs.open(file, CREATE, 0o644)
    expect(await fs.write(handle, Buffer.from('abcdef'), 0, 6)).toBe(3)
    await expect(fs.write(handle, Buffer.from('def'), 0, 3)).rejects.toMatchObject({ code: 'ENOSPC' })
    await fs.close(handle)
    expect(readFileSync(file, 'utf8')).toBe('abc')
    dropWorld(world)
  })

  test('after a crash every operation is refused, reads included, and settle() closes what was open', async () => {
    const world = makeWorld(disk.dir)
    const fs = new FaultFs({ fault: { kind: 'crash', at: 1 } })
    const handle = await fs.open(join(world.dir, 'a.txt'), CREATE, 0o644)
    await expect(fs.write(handle, Buffer.from('x'), 0, 1)).rejects.toBeInstanceOf(CrashError)
    await expect(fs.readdir(world.dir)).rejects.toBeInstanceOf(CrashError)
    await expect(fs.close(handle)).rejects.toBeInstanceOf(CrashError)
    await fs.settle()
    await expect(handle.stat()).rejects.toThrow()
    dropWorld(world)
  })
})

describe('power loss (ALICE: data durable at fsync, entries at the directory’s fsync)', () => {
  test('lose-all: a file never made durable in its directory vanishes; one that was keeps its fsynced bytes only', async () => {
    const world = makeWorld(disk.dir)
    const fs = new FaultFs({ scope: world.dir, fault: { kind: 'power-loss', at: 99, mode: 'lose-all' } })
    await writeFile(fs, join(world.dir, 'durable.txt'), 'kept', { fsync: true })
    await fsyncDir(fs, world.dir)
    await writeFile(fs, join(world.dir, 'no-dir-fsync.txt'), 'lost', { fsync: true })
    const handle = await fs.open(join(world.dir, 'durable.txt'), constants.O_WRONLY | constants.O_APPEND)
    await fs.write(handle, Buffer.from(' and more'), 0, 9)
    const renamedAt = join(world.dir, 'renamed.txt')
    await fs.rename(join(world.dir, 'durable.txt'), renamedAt)
    fs.crashNow()
    const report = await fs.settle()
    expect(existsSync(join(world.dir, 'no-dir-fsync.txt'))).toBe(false)
    expect(existsSync(renamedAt)).toBe(false)
    expect(readFileSync(join(world.dir, 'durable.txt'), 'utf8')).toBe('kept')
    expect(readFileSync(join(world.outside, 'sentinel.txt'), 'utf8')).toContain('never written')
    expect(report).toMatchObject({ filesTorn: 1, bytesLost: 9 })
    dropWorld(world)
  })

  test('torn: an unsynced append persists as a prefix of itself, or as zeros', async () => {
    const seen = new Set<string>()
    for (let seed = 1; seed <= 40; seed++) {
      const world = makeWorld(disk.dir)
      const fs = new FaultFs({ scope: world.dir, fault: { kind: 'power-loss', at: 99, mode: 'torn', seed } })
      const file = join(world.dir, 'log.txt')
      await writeFile(fs, file, 'synced|', { fsync: true })
      await fsyncDir(fs, world.dir)
      const handle = await fs.open(file, constants.O_WRONLY | constants.O_APPEND)
      await fs.write(handle, Buffer.from('unsynced'), 0, 8)
      fs.crashNow()
      await fs.settle()
      const text = readFileSync(file, 'latin1')
      expect(text.startsWith('synced|')).toBe(true)
      const tail = text.slice('synced|'.length)
      expect('unsynced'.startsWith(tail) || /^\0*$/.test(tail)).toBe(true)
      seen.add(tail === '' ? 'lost' : tail === 'unsynced' ? 'whole' : /^\0+$/.test(tail) ? 'zeros' : 'prefix')
      dropWorld(world)
    }
    expect(seen.size, [...seen].join(', ')).toBeGreaterThanOrEqual(3)
  })
})

describe('the harness catches a store that cuts corners', () => {
  test('a journal whose fsyncs are dropped loses acknowledged cases at a power loss, and the crash points say so', async () => {
    const start = makeWorld(disk.dir)
    const clean = copyWorld(start, disk.dir)
    const probe = new FaultFs()
    await launch(clean, probe)
    const ops = probe.mutations.map((e) => e.op)
    const reference = settledTree(clean).tree
    dropWorld(clean)
    const noFsync = (fs: FaultFs): FsLayer =>
      new Proxy(fs, {
        get(target, property) {
          if (property === 'fsync') return async () => undefined
          const value = Reflect.get(target, property) as unknown
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
        },
      })
    const points = await exercisePoints<Launched>({
      parent: disk.dir,
      start,
      ops: ops.filter((op) => op !== 'fsync').map(String),
      kinds: ['lose-all'],
      operate: (world, fs) => launch(world, noFsync(fs)),
      async recover(world, crashed, problems) {
        const held = await durableCases(world)
        const lost = crashed.acknowledged.filter((id) => !held.has(id))
        if (lost.length > 0) problems.push(`fsynced case(s) ${lost.join(', ')} lost`)
        return (await recoverRun(world)).path
      },
      reference,
    })
    expect(points.some((p) => p.problems.some((m) => m.includes('lost')))).toBe(true)
    dropWorld(start)
  })
})
