// nodeFsLayer's reads: one fstat per read (counted on Node's own FileHandle, which still does the
// work), the whole file read as it is on disk, and nothing but regular files opened for reading. Its
// fsync: on the thread pool, or on the calling thread when asked (ADR 0563), failing the same way.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { nodeFsLayer } from '../../src/store/file/fs-layer.js'

describe('nodeFsLayer reads', () => {
  let dir: string
  let fstats = 0
  let restore: () => void = () => undefined
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'digline-fs-layer-'))
    writeFileSync(join(dir, 'probe'), '')
    const handle = await open(join(dir, 'probe'))
    const proto = Object.getPrototypeOf(handle) as { stat: (...args: unknown[]) => Promise<unknown> }
    await handle.close()
    const stat = proto.stat
    proto.stat = function (this: unknown, ...args: unknown[]) {
      fstats += 1
      return stat.apply(this, args)
    }
    restore = () => {
      proto.stat = stat
    }
  })
  afterAll(() => {
    restore()
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => {
    fstats = 0
  })

  const file = (name: string, bytes: string | Buffer): string => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }

  it('readPrefix fstats once, and gives the size from that one fstat', async () => {
    const path = file('prefix.json', 'x'.repeat(10_000))
    const { bytes, fileSize } = await nodeFsLayer.readPrefix(path, 4096)
    expect(fstats).toBe(1)
    expect(bytes.length).toBe(4096)
    expect(fileSize).toBe(10_000)
  })

  it('readFile fstats once and reads the whole file, empty or larger than one read', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7)
    const read = await nodeFsLayer.readFile(file('big.bin', big))
    expect(read.length).toBe(big.length)
    expect(read.equals(big)).toBe(true)
    expect(fstats).toBe(1)
    expect((await nodeFsLayer.readFile(file('empty.bin', ''))).length).toBe(0)
  })

  it('reads /proc files, whose size fstat reports as 0, to their end', async () => {
    const text = (await nodeFsLayer.readFile('/proc/self/status')).toString('utf8')
    expect(text).toContain('VmHWM')
  })

  it('refuses to read a symlink, a directory or a FIFO, without blocking', async () => {
    const target = file('target.json', '{}')
    symlinkSync(target, join(dir, 'link.json'))
    mkdirSync(join(dir, 'dir.json'))
    execFileSync('mkfifo', [join(dir, 'fifo.json')])
    await expect(nodeFsLayer.readPrefix(join(dir, 'link.json'), 10)).rejects.toMatchObject({ code: 'ELOOP' })
    await expect(nodeFsLayer.readFile(join(dir, 'dir.json'))).rejects.toMatchObject({ code: 'EFTYPE' })
    await expect(nodeFsLayer.readFile(join(dir, 'fifo.json'))).rejects.toMatchObject({ code: 'EFTYPE' })
  })
})

describe('nodeFsLayer.fsync', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'digline-fs-layer-fsync-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** Counts the fsyncs Node's FileHandle sends to the thread pool while `body` runs. */
  async function poolSyncs(body: (handle: Awaited<ReturnType<typeof open>>) => Promise<void>): Promise<number> {
    const handle = await open(join(dir, 'leg.jsonl'), 'a')
    const proto = Object.getPrototypeOf(handle) as { sync: (...args: unknown[]) => Promise<void> }
    const sync = proto.sync
    let count = 0
    proto.sync = function (this: unknown, ...args: unknown[]) {
      count += 1
      return sync.apply(this, args)
    }
    try {
      await body(handle)
    } finally {
      proto.sync = sync
      await handle.close()
    }
    return count
  }

  it('goes through the thread pool unless asked to wait on the calling thread', async () => {
    expect(await poolSyncs((handle) => nodeFsLayer.fsync(handle))).toBe(1)
    expect(await poolSyncs((handle) => nodeFsLayer.fsync(handle, false))).toBe(1)
    expect(await poolSyncs((handle) => nodeFsLayer.fsync(handle, true))).toBe(0)
  })

  it('on the calling thread, a failure is a rejected promise with its errno, as on the pool', async () => {
    for (const onCallingThread of [true, false]) {
      // The kernel refuses to fsync a character device: a real failure, on a descriptor of our own.
      const handle = await open('/dev/null', 'w')
      try {
        const synced = nodeFsLayer.fsync(handle, onCallingThread)
        expect(synced).toBeInstanceOf(Promise)
        await expect(synced).rejects.toMatchObject({ code: 'EINVAL', syscall: 'fsync' })
      } finally {
        await handle.close()
      }
    }
  })
})
