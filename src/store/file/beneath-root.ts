// Every path under the store root is reached one component at a time from an open directory, never
// through a symlink: Node has no openat(), but on Linux /proc/self/fd/N/<name> resolves <name> in
// the directory that descriptor N holds open. A directory swapped for a symlink between a check and
// a use is therefore refused (ELOOP) instead of followed out of the store. Elsewhere the layer is
// passed through as it is, and the path checks in paths.ts are the only guard.
import { existsSync } from 'node:fs'
import { constants } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { PathRefusedError } from '../../errors.js'
import { errnoOf, type FileHandle, type FsLayer } from './fs-layer.js'

const PROC_FD = '/proc/self/fd'
const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0)
const STEP = DIRECTORY | (constants.O_NOFOLLOW ?? 0)
const WRAPPED = Symbol.for('digline.beneathRoot')

export function beneathRoot(inner: FsLayer, root: string): FsLayer {
  if ((inner as { [WRAPPED]?: boolean })[WRAPPED] === true || !existsSync(PROC_FD)) return inner
  const base = resolve(root)

  /** Runs fn with a path that reaches `path` through held-open directories, or `path` itself when it is not under the root. */
  async function reach<T>(path: string, fn: (via: string) => Promise<T>, whole = false): Promise<T> {
    const rel = relative(base, resolve(path))
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return fn(path)
    const segments = rel.split(sep)
    const leaf = whole ? undefined : segments.pop()
    let handle: FileHandle = await inner.open(base, DIRECTORY)
    try {
      for (const segment of segments) {
        const next = await inner.open(`${PROC_FD}/${handle.fd}/${segment}`, STEP).catch((error: unknown) => {
          if (errnoOf(error) === 'ELOOP') {
            throw new PathRefusedError(
              `${path} was refused: ${segment} became a symlink during the operation, which would lead out of the store`,
              'Remove the symlink from the store, then run the command again.',
            )
          }
          throw error
        })
        await inner.close(handle)
        handle = next
      }
      return await fn(leaf === undefined ? `${PROC_FD}/${handle.fd}` : `${PROC_FD}/${handle.fd}/${leaf}`)
    } finally {
      await inner.close(handle).catch(() => undefined)
    }
  }

  const layer: FsLayer & { [WRAPPED]: boolean } = {
    [WRAPPED]: true,
    open: (path, flags, mode) => reach(path, (via) => inner.open(via, flags, mode)),
    write: (handle, data, offset, length) => inner.write(handle, data, offset, length),
    fsync: (handle) => inner.fsync(handle),
    fstat: (handle) => inner.fstat(handle),
    ftruncate: (handle, length) => inner.ftruncate(handle, length),
    close: (handle) => inner.close(handle),
    rename: (from, to) => reach(from, (viaFrom) => reach(to, (viaTo) => inner.rename(viaFrom, viaTo))),
    unlink: (path) => reach(path, (via) => inner.unlink(via)),
    mkdir: (path, mode) => reach(path, (via) => inner.mkdir(via, mode)),
    rmdir: (path) => reach(path, (via) => inner.rmdir(via)),
    readdir: (path) => reach(path, (via) => inner.readdir(via), true),
    lstat: (path) => reach(path, (via) => inner.lstat(via)),
    stat: (path) => reach(path, (via) => inner.stat(via)),
    realpath: (path) => inner.realpath(path),
    readPrefix: (path, maxBytes) => reach(path, (via) => inner.readPrefix(via, maxBytes)),
    readFile: (path) => reach(path, (via) => inner.readFile(via)),
  }
  return layer
}
