// Every path under the store root is reached one component at a time from an open directory, never
// through a symlink: Node has no openat(), but on Linux /proc/self/fd/N/<name> resolves <name> in
// the directory that descriptor N holds open. A directory swapped for a symlink between a check and
// a use is therefore refused (ELOOP) instead of followed out of the store. Elsewhere the layer is
// passed through as it is, and the path checks in paths.ts are the only guard.
//
// An operation that touches many files of one directory (a listing, a delete's scan) holds that
// directory open for its length (holdingDirectory) and reaches each file from it, instead of walking
// from the root once per file (ADR 0088).
import { existsSync } from 'node:fs'
import { constants } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { PathRefusedError } from '../../suite/errors.js'
import { errnoOf, type FileHandle, type FsLayer } from './fs-layer.js'

const PROC_FD = '/proc/self/fd'
const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0)
const STEP = DIRECTORY | (constants.O_NOFOLLOW ?? 0)
const WRAPPED = Symbol.for('digline.beneathRoot')
const HOLD = Symbol.for('digline.beneathRoot.hold')

interface HeldDirectory {
  /** The directory's path components below the root. */
  segments: readonly string[]
  /** Its absolute path, resolved. */
  path: string
  handle: FileHandle
}

type Hold = <T>(dir: string, fn: (fs: FsLayer) => Promise<T>) => Promise<T>

interface GuardedLayer extends FsLayer {
  [WRAPPED]: boolean
  [HOLD]: Hold
}

export function beneathRoot(inner: FsLayer, root: string): FsLayer {
  if ((inner as { [WRAPPED]?: boolean })[WRAPPED] === true || !existsSync(PROC_FD)) return inner
  return guarded(inner, resolve(root), [])
}

/**
 * Runs fn with a layer that reaches every path under `dir` from one descriptor of `dir`, opened (from
 * the root, one component at a time) when the call starts and closed when fn settles. The directory
 * fn sees is the one that was there when it started: swapped for a symlink meanwhile, it is not
 * followed. When `dir` cannot be opened, or the layer is not one beneathRoot made, fn gets the layer
 * as it is, and its own operations meet whatever stopped the open.
 */
export function holdingDirectory<T>(fs: FsLayer, dir: string, fn: (fs: FsLayer) => Promise<T>): Promise<T> {
  const hold = (fs as Partial<GuardedLayer>)[HOLD]
  return hold === undefined ? fn(fs) : hold(dir, fn)
}

/** The same layer, never wrapped by beneathRoot: only for the benchmark that measures what the guard costs. */
export function withoutSymlinkGuard(fs: FsLayer): FsLayer {
  return Object.assign(Object.create(fs) as FsLayer, { [WRAPPED]: true })
}

function outsideRoot(rel: string): boolean {
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)
}

/** The held directory that is the deepest ancestor of (or is) the directory `segments` names. */
function deepestHeld(held: readonly HeldDirectory[], segments: readonly string[]): HeldDirectory | undefined {
  let found: HeldDirectory | undefined
  for (const dir of held) {
    if (dir.segments.length > segments.length || (found !== undefined && dir.segments.length <= found.segments.length)) continue
    if (dir.segments.every((segment, i) => segments[i] === segment)) found = dir
  }
  return found
}

/**
 * The way to a held directory itself (`whole`) or to a name directly in it, when `path` spells it
 * plainly (no `.`, `..` or doubled separator): what reach would find, without resolving the path.
 * A listing reaches every file this way.
 */
function viaHeld(held: readonly HeldDirectory[], path: string, whole: boolean): string | undefined {
  for (const dir of held) {
    if (whole) {
      if (path === dir.path) return `${PROC_FD}/${dir.handle.fd}`
      continue
    }
    if (path.length <= dir.path.length + 1 || !path.startsWith(dir.path) || path[dir.path.length] !== sep) continue
    const name = path.slice(dir.path.length + 1)
    if (name === '.' || name === '..' || name.includes(sep)) continue
    return `${PROC_FD}/${dir.handle.fd}/${name}`
  }
  return undefined
}

function guarded(inner: FsLayer, base: string, held: readonly HeldDirectory[]): GuardedLayer {
  /**
   * The way to `path` through held-open directories, or `path` itself when it is not under the root,
   * and the directory descriptor the walk opened for it (to close once the path is used). The walk
   * opens one component at a time on the calling thread (ADR 0555): microseconds each, where the
   * thread pool would take two wake-ups per step, and no other operation runs between the steps.
   */
  function walk(path: string, whole: boolean): { via: string; opened: number | undefined } {
    const direct = viaHeld(held, path, whole)
    if (direct !== undefined) return { via: direct, opened: undefined }
    const rel = relative(base, resolve(path))
    if (outsideRoot(rel)) return { via: path, opened: undefined }
    const segments = rel.split(sep)
    const leaf = whole ? undefined : segments.pop()
    const from = deepestHeld(held, segments)
    let fd = from?.handle.fd ?? inner.openDirectorySync(base, DIRECTORY)
    let opened = from === undefined ? fd : undefined
    try {
      for (const segment of segments.slice(from?.segments.length ?? 0)) {
        let next: number
        try {
          next = inner.openDirectorySync(`${PROC_FD}/${fd}/${segment}`, STEP)
        } catch (error) {
          if (errnoOf(error) === 'ELOOP') {
            throw new PathRefusedError(
              `${path} was refused: ${segment} became a symlink during the operation, which would lead out of the store`,
              'Remove the symlink from the store, then run the command again.',
            )
          }
          throw error
        }
        const previous = opened
        fd = next
        opened = next
        if (previous !== undefined) inner.closeSync(previous)
      }
    } catch (error) {
      if (opened !== undefined) closeQuietly(opened)
      throw error
    }
    return { via: leaf === undefined ? `${PROC_FD}/${fd}` : `${PROC_FD}/${fd}/${leaf}`, opened }
  }

  function closeQuietly(fd: number): void {
    try {
      inner.closeSync(fd)
    } catch {
      // the descriptor is gone either way
    }
  }

  /** Runs fn with a path that reaches `path` through held-open directories, or `path` itself when it is not under the root. */
  async function reach<T>(path: string, fn: (via: string) => Promise<T>, whole = false): Promise<T> {
    const { via, opened } = walk(path, whole)
    try {
      return await fn(via)
    } finally {
      if (opened !== undefined) closeQuietly(opened)
    }
  }

  async function hold<T>(dir: string, fn: (fs: FsLayer) => Promise<T>): Promise<T> {
    const rel = relative(base, resolve(dir))
    if (outsideRoot(rel)) return fn(layer)
    let handle: FileHandle
    try {
      handle = await reach(dir, (via) => inner.open(via, STEP))
    } catch {
      return fn(layer)
    }
    try {
      return await fn(guarded(inner, base, [...held, { segments: rel.split(sep), path: resolve(base, rel), handle }]))
    } finally {
      await inner.close(handle).catch(() => undefined)
    }
  }

  const layer: GuardedLayer = {
    [WRAPPED]: true,
    [HOLD]: hold,
    open: (path, flags, mode) => reach(path, (via) => inner.open(via, flags, mode)),
    write: (handle, data, offset, length) => inner.write(handle, data, offset, length),
    fsync: (handle, onCallingThread) => inner.fsync(handle, onCallingThread),
    fstat: (handle) => inner.fstat(handle),
    ftruncate: (handle, length) => inner.ftruncate(handle, length),
    close: (handle) => inner.close(handle),
    rename: (from, to) => reach(from, (viaFrom) => reach(to, (viaTo) => inner.rename(viaFrom, viaTo))),
    link: (from, to) => reach(from, (viaFrom) => reach(to, (viaTo) => inner.link(viaFrom, viaTo))),
    unlink: (path) => reach(path, (via) => inner.unlink(via)),
    mkdir: (path, mode) => reach(path, (via) => inner.mkdir(via, mode)),
    rmdir: (path) => reach(path, (via) => inner.rmdir(via)),
    readdir: (path) => reach(path, (via) => inner.readdir(via), true),
    lstat: (path) => reach(path, (via) => inner.lstat(via)),
    stat: (path) => reach(path, (via) => inner.stat(via)),
    realpath: (path) => inner.realpath(path),
    readPrefix: (path, maxBytes) => reach(path, (via) => inner.readPrefix(via, maxBytes)),
    readFile: (path) => reach(path, (via) => inner.readFile(via)),
    openDirectorySync: (path, flags) => {
      const { via, opened } = walk(path, true)
      try {
        return inner.openDirectorySync(via, flags)
      } finally {
        if (opened !== undefined) closeQuietly(opened)
      }
    },
    closeSync: (fd) => inner.closeSync(fd),
  }
  return layer
}
