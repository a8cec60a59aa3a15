// A filesystem layer that stops after its k-th mutation, as a process killed there would: the first
// k calls that change the disk go through, and every later one fails. Reads keep working.
import { constants } from 'node:fs'
import { nodeFsLayer, type FsLayer } from '../../src/store/file/fs-layer.js'

const WRITING = constants.O_CREAT | constants.O_WRONLY | constants.O_RDWR | constants.O_APPEND | constants.O_TRUNC

export interface CrashingFs extends FsLayer {
  /** Mutations that went through. */
  readonly done: number
  /** Whether a mutation was refused (the crash happened). */
  readonly crashed: boolean
}

export function crashingFs(limit: number, base: FsLayer = nodeFsLayer): CrashingFs {
  let done = 0
  let crashed = false
  const mutate =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (done >= limit) {
        crashed = true
        return Promise.reject(Object.assign(new Error(`stopped after mutation ${limit} (injected crash)`), { code: 'EIO' }))
      }
      done += 1
      return call(...args)
    }
  const layer: FsLayer = {
    ...base,
    open: (path, flags, mode) => ((flags & WRITING) === 0 ? base.open(path, flags, mode) : mutate(base.open)(path, flags, mode)),
    write: mutate(base.write),
    ftruncate: mutate(base.ftruncate),
    rename: mutate(base.rename),
    unlink: mutate(base.unlink),
    mkdir: mutate(base.mkdir),
    rmdir: mutate(base.rmdir),
  }
  return Object.defineProperties(layer, {
    done: { get: () => done },
    crashed: { get: () => crashed },
  }) as CrashingFs
}
