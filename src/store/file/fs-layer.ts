// The file operations the store performs, and nothing else. The store takes an FsLayer so a test
// can hand it one that fails on purpose (ENOSPC on the third write, EIO on fsync); in production the
// store gets nodeFsLayer, which forwards each call to node:fs/promises, but for a small write, an
// fstat (ADR 0440), a journal record's fsync (ADR 0563) and a directory step of the symlink guard
// (ADR 0555), made on the calling thread.
import { closeSync, constants, fstatSync, fsyncSync, openSync, writeSync, type Stats } from 'node:fs'
import { link, lstat, mkdir, open, readdir, realpath, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises'

export type { FileHandle }

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
/**
 * A write of at most this many bytes is made on the calling thread: copying them into the page cache
 * takes microseconds, less than the thread pool's round trip (two thread wake-ups). A journal batch is
 * such a write; its durability comes from the fsync after it.
 */
const WRITE_ON_THREAD_BYTES = 16 * 1024
/** The most one read() call takes in Node. */
const MAX_READ_BYTES = 2 ** 31 - 1

export interface FilePrefix {
  /** The first bytes of the file, at most the number asked for. */
  bytes: Buffer
  /** The file's whole size when it was opened. */
  fileSize: number
}

export interface FsLayer {
  open(path: string, flags: number, mode?: number): Promise<FileHandle>
  /** One write call; returns how many bytes the kernel took (possibly fewer than asked). */
  write(handle: FileHandle, data: Uint8Array, offset: number, length: number): Promise<number>
  /**
   * Returns once the file's bytes are on the device. `onCallingThread` waits for the device on this
   * thread instead of the thread pool's (a journal record's fsync, ADR 0563).
   */
  fsync(handle: FileHandle, onCallingThread?: boolean): Promise<void>
  fstat(handle: FileHandle): Promise<Stats>
  ftruncate(handle: FileHandle, length: number): Promise<void>
  close(handle: FileHandle): Promise<void>
  rename(from: string, to: string): Promise<void>
  /** A second name for an existing file; fails with EEXIST when `to` exists, and never follows a symlink at `from`. */
  link(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  /** Creates one directory; its parent must exist. */
  mkdir(path: string, mode?: number): Promise<void>
  rmdir(path: string): Promise<void>
  readdir(path: string): Promise<string[]>
  lstat(path: string): Promise<Stats>
  stat(path: string): Promise<Stats>
  realpath(path: string): Promise<string>
  /** At most maxBytes from the start of the file; never follows a symlink in the last component. */
  readPrefix(path: string, maxBytes: number): Promise<FilePrefix>
  /** The whole file; never follows a symlink in the last component. */
  readFile(path: string): Promise<Buffer>
  /**
   * A directory opened on the calling thread, as a bare descriptor: one step of the symlink guard's
   * walk (beneath-root.ts), which would otherwise wait on the thread pool twice per directory.
   */
  openDirectorySync(path: string, flags: number): number
  closeSync(fd: number): void
}

/** Opens for reading without following a final symlink or blocking on a FIFO; only regular files. Its one fstat gives the size too. */
async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(path, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0))
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close()
    throw error
  })
  if (!stats.isFile()) {
    await handle.close()
    throw Object.assign(new Error(`${path} is not a regular file`), { code: 'EFTYPE' })
  }
  return { handle, size: stats.size }
}

/** Fills `bytes` from `position` on until it is full or the file ends; returns how many bytes it read. */
async function readInto(handle: FileHandle, bytes: Buffer, position: number): Promise<number> {
  let filled = 0
  while (filled < bytes.length) {
    const { bytesRead } = await handle.read(bytes, filled, Math.min(bytes.length - filled, MAX_READ_BYTES), position + filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return filled
}

async function readPrefix(path: string, maxBytes: number): Promise<FilePrefix> {
  const { handle, size } = await openRegularFile(path)
  try {
    const bytes = Buffer.alloc(Math.min(maxBytes, size))
    const filled = await readInto(handle, bytes, 0)
    return { bytes: bytes.subarray(0, filled), fileSize: size }
  } finally {
    await handle.close()
  }
}

/** Past the size fstat gave, in case the file grew since: read on until the end. */
const GROWTH_CHUNK_BYTES = 64 * 1024

async function readWholeFile(path: string): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path)
  try {
    const chunks = [Buffer.allocUnsafe(size)]
    let total = await readInto(handle, chunks[0]!, 0)
    if (total < size) return chunks[0]!.subarray(0, total)
    for (;;) {
      const more = Buffer.allocUnsafe(GROWTH_CHUNK_BYTES)
      const got = await readInto(handle, more, total)
      if (got === 0) break
      chunks.push(more.subarray(0, got))
      total += got
      if (got < more.length) break
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)
  } finally {
    await handle.close()
  }
}

export const nodeFsLayer: FsLayer = {
  open: (path, flags, mode) => open(path, flags, mode),
  write: async (handle, data, offset, length) =>
    length <= WRITE_ON_THREAD_BYTES ? writeSync(handle.fd, data, offset, length) : (await handle.write(data, offset, length)).bytesWritten,
  fsync: async (handle, onCallingThread = false) => {
    if (onCallingThread) fsyncSync(handle.fd)
    else await handle.sync()
  },
  // An fstat of an open handle reads the inode the kernel holds: no disk, no thread pool.
  fstat: async (handle) => fstatSync(handle.fd),
  ftruncate: (handle, length) => handle.truncate(length),
  close: (handle) => handle.close(),
  rename: (from, to) => rename(from, to),
  link: (from, to) => link(from, to),
  unlink: (path) => unlink(path),
  mkdir: async (path, mode) => {
    await mkdir(path, { mode: mode ?? 0o777 })
  },
  rmdir: (path) => rmdir(path),
  readdir: (path) => readdir(path),
  lstat: (path) => lstat(path),
  stat: (path) => stat(path),
  realpath: (path) => realpath(path),
  readPrefix,
  readFile: readWholeFile,
  openDirectorySync: (path, flags) => openSync(path, flags),
  closeSync: (fd) => closeSync(fd),
}

/** The errno code of a failed fs call (ENOENT, ENOSPC, …), if it has one. */
export function errnoOf(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code
  return undefined
}
