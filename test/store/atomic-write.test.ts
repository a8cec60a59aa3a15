// The store's atomic writer and its helpers on a real filesystem (the failures of real media are in
// real-media.test.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PathRefusedError } from '../../src/suite/errors.js'
import { StoreWriteError } from '../../src/store/errors.js'
import {
  appendLineDurably,
  ensureDirectory,
  fsyncDirectory,
  isTempName,
  removeCreatedDirectories,
  tempNameFor,
  tempNameOf,
  writeFileAtomic,
} from '../../src/store/file/atomic-write.js'
import { processStartTime } from '../../src/store/live-writer.js'
import { spawn } from 'node:child_process'
import { nodeFsLayer, type FsLayer } from '../../src/store/file/fs-layer.js'
import { refusalOf } from './contract.js'
import { snapshotTree, tempFilesIn } from './tree-snapshot.js'

describe('the atomic writer', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'digline-atomic-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('names its temp file .<basename>.<pid>.<random>.tmp in the target directory', () => {
    const temp = tempNameFor(join(dir, 'k.json'))
    expect(temp.startsWith(join(dir, `.k.json.${process.pid}.`))).toBe(true)
    expect(temp).toMatch(/\.[0-9a-f]{12}\.tmp$/)
    expect(isTempName(temp.slice(dir.length + 1))).toBe(true)
    expect(tempNameFor(join(dir, 'k.json'))).not.toBe(temp)
  })

  it('sweeps the temp files of crashed writes in the directory it writes to, and only those', async () => {
    const live = spawn('sleep', ['60'], { stdio: 'ignore' })
    const dead = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const liveStart = processStartTime(live.pid!)
      const deadStart = processStartTime(dead.pid!)
      expect(liveStart).not.toBeNull()
      const exited = new Promise((resolve) => dead.on('exit', resolve))
      dead.kill('SIGKILL')
      await exited
      const target = join(dir, 'k.json')
      const name = (path: string) => path.slice(dir.length + 1)
      const abandoned = [tempNameOf(target, dead.pid!, deadStart), tempNameOf(target, live.pid!, liveStart! + 1), tempNameOf(join(dir, 'other.json'), dead.pid!, deadStart)]
      const kept = [tempNameOf(target, live.pid!, liveStart), join(dir, `.k.json.${dead.pid}.abcdef012345.tmp`)]
      for (const file of [...abandoned, ...kept]) writeFileSync(file, 'half a document')
      await writeFileAtomic(nodeFsLayer, target, 'whole\n')
      expect(readdirSync(dir).sort()).toEqual(['k.json', ...kept.map(name)].sort())
    } finally {
      live.kill('SIGKILL')
      dead.kill('SIGKILL')
    }
  })

  it('creates and replaces a file, leaving no temp file', async () => {
    const target = join(dir, 'k.json')
    await writeFileAtomic(nodeFsLayer, target, 'first\n')
    await writeFileAtomic(nodeFsLayer, target, Buffer.from('second\n'))
    expect(readFileSync(target, 'utf8')).toBe('second\n')
    expect(readdirSync(dir)).toEqual(['k.json'])
  })

  it('refuses a target that is a symlink, leaving the symlink and its destination untouched', async () => {
    const destination = join(dir, 'destination.txt')
    writeFileSync(destination, 'keep me')
    const target = join(dir, 'k.json')
    symlinkSync(destination, target)
    const before = snapshotTree(dir)
    await refusalOf(writeFileAtomic(nodeFsLayer, target, 'replaced'), PathRefusedError)
    expect(snapshotTree(dir)).toEqual(before)
    await refusalOf(appendLineDurably(nodeFsLayer, target, 'line'), PathRefusedError)
    expect(snapshotTree(dir)).toEqual(before)
  })

  it('on a failure after the temp file exists: removes it, keeps the target byte-identical, names the errno', async () => {
    const target = join(dir, 'k.json')
    writeFileSync(target, 'previous')
    const failingFsync: FsLayer = {
      ...nodeFsLayer,
      fsync: async () => {
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
      },
    }
    const before = snapshotTree(dir)
    const error = await refusalOf(writeFileAtomic(failingFsync, target, 'next'), StoreWriteError)
    expect((error as StoreWriteError).errno).toBe('EIO')
    expect(error.message).toContain(target)
    expect(error.exitCode).toBe(2)
    expect(snapshotTree(dir)).toEqual(before)
  })

  it('keeps writing after a short write until every byte is on disk', async () => {
    const target = join(dir, 'k.json')
    const dribbling: FsLayer = { ...nodeFsLayer, write: (handle, data, offset, length) => nodeFsLayer.write(handle, data, offset, Math.min(length, 7)) }
    const text = 'x'.repeat(1000)
    await writeFileAtomic(dribbling, target, text)
    expect(readFileSync(target, 'utf8')).toBe(text)
  })

  it('ensureDirectory creates every missing level, reports them, and can undo them', async () => {
    const deep = join(dir, 'a', 'b', 'c')
    expect(await ensureDirectory(nodeFsLayer, deep)).toEqual([join(dir, 'a'), join(dir, 'a', 'b'), deep])
    expect(statSync(deep).isDirectory()).toBe(true)
    expect(await ensureDirectory(nodeFsLayer, deep)).toEqual([])
    await removeCreatedDirectories(nodeFsLayer, [join(dir, 'a'), join(dir, 'a', 'b'), deep])
    expect(existsSync(join(dir, 'a'))).toBe(false)
  })

  it('ensureDirectory fails with StoreWriteError when a file is in the way', async () => {
    writeFileSync(join(dir, 'file'), '')
    const error = await refusalOf(ensureDirectory(nodeFsLayer, join(dir, 'file', 'sub')), StoreWriteError)
    expect((error as StoreWriteError).errno).toBe('ENOTDIR')
  })

  it('fsyncDirectory works on a real directory', async () => {
    await expect(fsyncDirectory(nodeFsLayer, dir)).resolves.toBeUndefined()
  })

  it('appendLineDurably appends one line per call and creates the file', async () => {
    const register = join(dir, 'register.jsonl')
    await appendLineDurably(nodeFsLayer, register, '{"a":1}')
    await appendLineDurably(nodeFsLayer, register, '{"b":2}\n')
    expect(readFileSync(register, 'utf8')).toBe('{"a":1}\n{"b":2}\n')
    await expect(appendLineDurably(nodeFsLayer, register, 'two\nlines')).rejects.toBeInstanceOf(TypeError)
    expect(readFileSync(register, 'utf8')).toBe('{"a":1}\n{"b":2}\n')
  })

  it('appendLineDurably cuts a short write back off, leaving the file as it was', async () => {
    const register = join(dir, 'register.jsonl')
    writeFileSync(register, 'kept\n')
    const shortWrite: FsLayer = { ...nodeFsLayer, write: (handle, data, offset) => nodeFsLayer.write(handle, data, offset, 3) }
    const error = await refusalOf(appendLineDurably(shortWrite, register, 'a long line'), StoreWriteError)
    expect(error.message).toContain(register)
    expect(readFileSync(register, 'utf8')).toBe('kept\n')
  })

  it('appendLineDurably does not leave behind a file it created when the write fails', async () => {
    mkdirSync(join(dir, 'tenant'))
    const register = join(dir, 'tenant', 'register.jsonl')
    const failingWrite: FsLayer = {
      ...nodeFsLayer,
      write: async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
      },
    }
    const error = await refusalOf(appendLineDurably(failingWrite, register, 'line'), StoreWriteError)
    expect((error as StoreWriteError).errno).toBe('ENOSPC')
    expect(readdirSync(join(dir, 'tenant'))).toEqual([])
    expect(tempFilesIn(snapshotTree(dir))).toEqual([])
  })
})
