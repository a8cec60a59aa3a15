// The store's own durable writers. Not write-file-atomic: it resolves on ENOSPC after committing a
// truncated file, does not fsync the directory and follows symlinks (SPEC §9).
import { createHash, randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { isDiglineError } from '../../errors/base.js'
import { PathRefusedError } from '../../suite/errors.js'
import { StoreWriteError } from '../errors.js'
import { errnoOf, type FileHandle, type FsLayer } from './fs-layer.js'
import { bootId, leaseHolds, processStartTime } from '../live-writer.js'

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const O_DIRECTORY = constants.O_DIRECTORY ?? 0
const FILE_MODE = 0o644

/** Filesystems that cannot fsync a directory say so with these; the rename is still done. */
const DIRECTORY_FSYNC_UNSUPPORTED = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR', 'EBADF'])

function short(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8)
}

/**
 * A temp file's name carries its writer's lease: `.<target>.<pid>.<start time>.<host#>.<boot#>.<random>.tmp`
 * (host# and boot# are 8 hex of sha256 of the host name and boot id), so a later writer in the same
 * directory can tell a temp file of a crashed write (provably abandoned) from one being written.
 */
export function tempNameFor(target: string): string {
  return tempNameOf(target, process.pid, processStartTime(process.pid))
}

/** The temp name a writer with this pid and start time (on this host, in this boot) gives target. */
export function tempNameOf(target: string, pid: number, startTime: number | null): string {
  return join(dirname(target), `.${basename(target)}.${pid}.${startTime ?? 'x'}.${short(hostname())}.${short(bootId() ?? '')}.${randomBytes(6).toString('hex')}.tmp`)
}

/** Whether a directory entry is one of the atomic writer's temp files. */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp')
}

const LEASED_TEMP = /^\..+\.([1-9][0-9]*)\.([0-9]+|x)\.([0-9a-f]{8})\.([0-9a-f]{8})\.[0-9a-f]{12}\.tmp$/

/** Temp files this process is writing now: its own, never abandoned while listed here. */
const inFlight = new Set<string>()

/** Marks a temp file of this process as being written, so no sweep takes it for abandoned; the returned function ends that. */
export function holdTemp(temp: string): () => void {
  inFlight.add(temp)
  return () => inFlight.delete(temp)
}

/**
 * Whether a temp file name is provably a crashed write's: one of ours (it carries a lease) from this
 * host, whose writer is gone (another boot, a dead pid, a pid since reused), or this process's own
 * from a write that is no longer in flight. A name without a lease, or from another host, is left.
 */
export function isAbandonedTemp(dir: string, name: string): boolean {
  const match = LEASED_TEMP.exec(name)
  if (match === null || match[3] !== short(hostname())) return false
  if (match[4] !== short(bootId() ?? '')) return true
  const pid = Number(match[1])
  const start = match[2] === 'x' ? null : Number(match[2])
  if (pid === process.pid && start === processStartTime(process.pid)) return !inFlight.has(join(dir, name))
  return !leaseHolds({ host: hostname(), boot: null, pid, start_time: start })
}

/** Removes the abandoned temp files of a directory (best effort: a sweep never fails a write). */
export async function sweepAbandonedTemps(fs: FsLayer, dir: string): Promise<string[]> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch {
    return []
  }
  const swept: string[] = []
  for (const name of names) {
    if (!isTempName(name) || !isAbandonedTemp(dir, name)) continue
    try {
      await fs.unlink(join(dir, name))
      swept.push(name)
    } catch {
      // Gone already, or not ours to remove after all: the next write looks again.
    }
  }
  return swept
}

function nextStepFor(errno: string | undefined, dir: string): string {
  switch (errno) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `free space on the filesystem holding ${dir}, then run again`
    case 'EROFS':
      return `the store is on a read-only filesystem: remount ${dir} read-write or point the store option at a writable directory, then run again`
    case 'EACCES':
    case 'EPERM':
      return `give the user running digline write permission on ${dir}, then run again`
    default:
      return `check the filesystem holding ${dir}, then run again`
  }
}

export function storeWriteError(what: string, path: string, error: unknown, outcome = 'the previous state is intact'): StoreWriteError {
  const errno = errnoOf(error)
  const reason = error instanceof Error ? error.message : String(error)
  return new StoreWriteError(`${what} ${path} failed with ${errno ?? 'an error'} (${reason}); ${outcome}`, nextStepFor(errno, dirname(path)), errno)
}

function refuseSymlink(target: string): PathRefusedError {
  return new PathRefusedError(`refused to write ${target}: it is a symlink, and the store never writes through one`, `remove the symlink ${target}, then run the command again`)
}

async function lstatIfExists(fs: FsLayer, path: string) {
  try {
    return await fs.lstat(path)
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined
    throw error
  }
}

async function statIfExists(fs: FsLayer, path: string) {
  try {
    return await fs.stat(path)
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined
    throw error
  }
}

async function closeQuietly(fs: FsLayer, handle: FileHandle | undefined): Promise<void> {
  if (handle === undefined) return
  try {
    await fs.close(handle)
  } catch {
    // Already failing; the first error is the one to report.
  }
}

async function unlinkQuietly(fs: FsLayer, path: string): Promise<void> {
  try {
    await fs.unlink(path)
  } catch {
    // Already failing; the first error is the one to report.
  }
}

async function writeAll(fs: FsLayer, handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0
  while (offset < bytes.length) {
    const written = await fs.write(handle, bytes, offset, bytes.length - offset)
    if (written <= 0) throw Object.assign(new Error('write() accepted no bytes'), { code: 'EIO' })
    offset += written
  }
}

/** fsync of a directory, so a created, renamed or removed entry in it survives a crash. */
export async function fsyncDirectory(fs: FsLayer, dir: string, outcome?: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await fs.open(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    await fs.fsync(handle)
  } catch (error) {
    if (DIRECTORY_FSYNC_UNSUPPORTED.has(errnoOf(error) ?? '')) return
    throw storeWriteError('fsync of the directory', dir, error, outcome)
  } finally {
    await closeQuietly(fs, handle)
  }
}

/**
 * mkdir -p, fsyncing the parent of every directory it creates; returns the directories it created,
 * outermost first. Symlink policy is StorePaths' job.
 */
export async function ensureDirectory(fs: FsLayer, dir: string): Promise<string[]> {
  const missing: string[] = []
  let current = dir
  for (;;) {
    let stats
    try {
      stats = await statIfExists(fs, current)
    } catch (error) {
      throw storeWriteError('creating the directory', dir, error)
    }
    if (stats !== undefined) {
      if (!stats.isDirectory()) {
        throw storeWriteError('creating the directory', dir, Object.assign(new Error(`${current} is not a directory`), { code: 'ENOTDIR' }))
      }
      break
    }
    missing.unshift(current)
    const parent = dirname(current)
    if (parent === current) break
    current = parent
  }
  const created: string[] = []
  try {
    for (const path of missing) {
      try {
        await fs.mkdir(path)
        created.push(path)
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') throw storeWriteError('creating the directory', path, error)
        const stats = await fs.stat(path).catch(() => undefined)
        if (stats?.isDirectory() !== true) throw storeWriteError('creating the directory', path, error)
      }
      await fsyncDirectory(fs, dirname(path))
    }
  } catch (error) {
    await removeCreatedDirectories(fs, created)
    throw error
  }
  return created
}

/** Undoes ensureDirectory after a later step failed: removes the directories it created, if still empty. */
export async function removeCreatedDirectories(fs: FsLayer, created: readonly string[]): Promise<void> {
  for (const dir of [...created].reverse()) {
    try {
      await fs.rmdir(dir)
    } catch {
      return
    }
  }
}

/** Text handed to the kernel at once when a file is written from a stream of lines. */
export const STREAM_CHUNK_CHARS = 64 * 1024

/** Writes the pieces in order, gathered into writes of about STREAM_CHUNK_CHARS characters. */
async function writePieces(fs: FsLayer, handle: FileHandle, pieces: Iterable<string>): Promise<void> {
  let pending = ''
  for (const piece of pieces) {
    pending += piece
    if (pending.length < STREAM_CHUNK_CHARS) continue
    await writeAll(fs, handle, Buffer.from(pending, 'utf8'))
    pending = ''
  }
  if (pending.length > 0) await writeAll(fs, handle, Buffer.from(pending, 'utf8'))
}

/**
 * Replaces target with data, or leaves it byte-identical: temp file in the same directory (O_EXCL),
 * full write, fsync, rename, fsync of the directory. No temp file survives a failure. Data given as
 * an iterable of strings (a document's lines) is written as it is produced, in chunks of about
 * 64 KiB, so the whole text is never held at once; an error thrown by the iterable fails the write
 * like an I/O error does.
 */
export async function writeFileAtomic(fs: FsLayer, target: string, data: string | Uint8Array | Iterable<string>): Promise<void> {
  const temp = tempNameFor(target)
  let handle: FileHandle | undefined
  let tempCreated = false
  inFlight.add(temp)
  try {
    await sweepAbandonedTemps(fs, dirname(target))
    const existing = await lstatIfExists(fs, target)
    if (existing?.isSymbolicLink() === true) throw refuseSymlink(target)
    handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | O_NOFOLLOW, FILE_MODE)
    tempCreated = true
    if (typeof data === 'string') await writeAll(fs, handle, Buffer.from(data, 'utf8'))
    else if (data instanceof Uint8Array) await writeAll(fs, handle, data)
    else await writePieces(fs, handle, data)
    await fs.fsync(handle)
    const closing = handle
    handle = undefined
    await fs.close(closing)
    await fs.rename(temp, target)
    tempCreated = false
  } catch (error) {
    await closeQuietly(fs, handle)
    if (tempCreated) await unlinkQuietly(fs, temp)
    if (isDiglineError(error)) throw error
    throw storeWriteError('writing', target, error)
  } finally {
    inFlight.delete(temp)
  }
  await fsyncDirectory(fs, dirname(target), `${target} was replaced, but the replacement may not survive a crash`)
}

/**
 * Appends one line with a single write (O_APPEND), then fsyncs. A failed or short write is cut
 * back off, so the file is left as it was.
 */
export async function appendLineDurably(fs: FsLayer, path: string, line: string): Promise<void> {
  const text = line.endsWith('\n') ? line : `${line}\n`
  if (text.indexOf('\n') !== text.length - 1) throw new TypeError('appendLineDurably takes exactly one line')
  const bytes = Buffer.from(text, 'utf8')
  let handle: FileHandle | undefined
  let sizeBefore: number | undefined
  let written = 0
  let created = false
  try {
    const existing = await lstatIfExists(fs, path)
    if (existing?.isSymbolicLink() === true) throw refuseSymlink(path)
    created = existing === undefined
    handle = await fs.open(path, constants.O_APPEND | constants.O_CREAT | constants.O_WRONLY | O_NOFOLLOW, FILE_MODE)
    const stats = await fs.fstat(handle)
    if (stats.nlink > 1)
      throw new PathRefusedError(
        `${path} was refused: it is a hard link (${stats.nlink} names), so appending to it could change a file outside the store`,
        'Replace it with a plain copy (cp --remove-destination), then run the command again.',
      )
    sizeBefore = stats.size
    written = await fs.write(handle, bytes, 0, bytes.length)
    if (written !== bytes.length) throw Object.assign(new Error(`short write: ${written} of ${bytes.length} bytes`), { code: 'EIO' })
    await fs.fsync(handle)
  } catch (error) {
    if (handle !== undefined && sizeBefore !== undefined) await cutBack(fs, handle, sizeBefore, written)
    await closeQuietly(fs, handle)
    if (created && sizeBefore === 0) await unlinkQuietly(fs, path)
    if (isDiglineError(error)) throw error
    throw storeWriteError('appending a line to', path, error)
  }
  const closing = handle
  try {
    await fs.close(closing)
  } catch (error) {
    throw storeWriteError('closing', path, error, 'the line was written and fsynced')
  }
  if (created) await fsyncDirectory(fs, dirname(path), `${path} was created, but it may not survive a crash`)
}

/** Removes a partial line, unless someone else appended after it (then the file is not ours to cut). */
async function cutBack(fs: FsLayer, handle: FileHandle, sizeBefore: number, written: number): Promise<void> {
  try {
    const size = (await fs.fstat(handle)).size
    if (size > sizeBefore && size === sizeBefore + written) {
      await fs.ftruncate(handle, sizeBefore)
      await fs.fsync(handle)
    }
  } catch {
    // Already failing; the first error is the one to report.
  }
}
