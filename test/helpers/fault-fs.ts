// An FsLayer for tests that breaks on purpose, the way SQLite's test VFS does: it counts the
// store's mutating operations and, at the Nth one, fails it with an errno (ENOSPC, EIO, EACCES…),
// or "crashes" there (CrashError, and every later operation is refused as if the process had died),
// or loses power there (a crash, then the disk rewritten by the DurabilityModel to a state the
// kernel could have left). Production code is untouched: it only ever sees nodeFsLayer.
import { closeSync, constants, readFileSync, lstatSync, realpathSync } from 'node:fs'
import { nodeFsLayer, type FileHandle, type FilePrefix, type FsLayer } from '../../src/store/file/fs-layer.js'
import { DurabilityModel, type PowerLossMode, type PowerLossReport } from './durability-model.js'
import type { Stats } from 'node:fs'

export type FaultOp =
  | 'open'
  | 'write'
  | 'fsync'
  | 'fstat'
  | 'ftruncate'
  | 'close'
  | 'rename'
  | 'link'
  | 'unlink'
  | 'mkdir'
  | 'rmdir'
  | 'readdir'
  | 'lstat'
  | 'stat'
  | 'realpath'
  | 'readPrefix'
  | 'readFile'

export interface OpEvent {
  op: FaultOp
  /** The path operated on; for handle operations, the path the handle was opened at. */
  path: string
  /** rename's and link's destination. */
  to?: string
  /** The /proc/self/fd path the store really used, when it reached `path` through a held-open directory. */
  via?: string
  viaTo?: string
  flags?: number
  /** Position among the mutating operations (0-based), or undefined for a read. */
  index: number | undefined
}

export type Fault =
  | { kind: 'crash'; at: number }
  | { kind: 'power-loss'; at: number; mode: PowerLossMode; seed?: number }
  | {
      kind: 'errno'
      at: number
      code: string
      /** At a write: the kernel takes half the bytes (a short write); the next write gets the errno. */
      shortWrite?: boolean
      /** Later operations that fail with the same errno (a disk that stays full). */
      persists?: (op: FaultOp) => boolean
    }

export interface FaultFsOptions {
  base?: FsLayer
  fault?: Fault
  /** The tree whose durability is modelled; required for a power-loss fault. */
  scope?: string
  /** Runs before every operation (reads included), e.g. to swap a directory for a symlink. */
  beforeOp?: (event: OpEvent) => void | Promise<void>
}

export class CrashError extends Error {
  override readonly name = 'CrashError'
}

const WRITE_FLAGS = constants.O_WRONLY | constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND

export function isMutatingOpen(flags: number): boolean {
  return (flags & WRITE_FLAGS) !== 0
}

function errnoError(code: string, op: FaultOp, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected by FaultFs, ${op} '${path}'`), { code, syscall: op, path })
}

interface OpenHandle {
  path: string
  directory: boolean
}

/** The real path a /proc/self/fd/N/<name> path stands for, so events and the model speak of store paths. */
export function logicalPath(path: string): string {
  const m = /^\/proc\/self\/fd\/(\d+)(\/.*)?$/.exec(path)
  if (m === null) return path
  try {
    return `${realpathSync(`/proc/self/fd/${m[1]}`)}${m[2] ?? ''}`
  } catch {
    return path
  }
}

export class FaultFs implements FsLayer {
  /** Every mutating operation attempted, in order (the one that faulted included). */
  readonly mutations: OpEvent[] = []
  /** Every operation attempted, reads included. */
  readonly events: OpEvent[] = []
  crashed = false
  /** Whether the configured fault has fired. */
  fired = false
  private readonly base: FsLayer
  private readonly handles = new Map<FileHandle, OpenHandle>()
  /** A linked file's first name → its second, until the first is unlinked. */
  private readonly secondNames = new Map<string, string>()
  /** Directory descriptors the guard's walk opened on the calling thread, by path. */
  private readonly fds = new Map<number, string>()
  private readonly model: DurabilityModel | undefined
  private pendingWriteErrno: string | undefined
  private persisting: { code: string; persists: (op: FaultOp) => boolean } | undefined
  private settled = false

  constructor(private readonly options: FaultFsOptions = {}) {
    this.base = options.base ?? nodeFsLayer
    if (options.fault?.kind === 'power-loss' && options.scope === undefined) throw new Error('a power-loss fault needs a scope')
    this.model = options.scope === undefined ? undefined : DurabilityModel.capture(options.scope)
  }

  /** After the operation under test returned: closes what the dead process held, and on a power loss rewrites the disk. */
  async settle(): Promise<PowerLossReport | undefined> {
    if (this.settled) return undefined
    this.settled = true
    for (const handle of this.handles.keys()) await handle.close().catch(() => undefined)
    this.handles.clear()
    for (const fd of this.fds.keys()) {
      try {
        closeSync(fd)
      } catch {
        // closed already
      }
    }
    this.fds.clear()
    const fault = this.options.fault
    if (fault?.kind !== 'power-loss' || !this.fired) return undefined
    const { root, report } = this.model!.image(fault.mode, fault.seed ?? fault.at + 1)
    this.model!.restore(root)
    return report
  }

  /** Crashes now, between two operations (with a power-loss fault, settle() then rewrites the disk). */
  crashNow(): void {
    this.crashed = true
    this.fired = true
  }

  /** Mutating operations of a clean pass, by kind. */
  countByOp(): Record<string, number> {
    const counts: Record<string, number> = {}
    for (const e of this.mutations) counts[e.op] = (counts[e.op] ?? 0) + 1
    return counts
  }

  private async enter(event: OpEvent, mutating: boolean): Promise<void> {
    if (this.crashed) throw new CrashError(`refused ${event.op} ${event.path}: the process crashed earlier`)
    if (mutating) {
      event.index = this.mutations.length
      this.mutations.push(event)
    }
    this.events.push(event)
    await this.options.beforeOp?.(event)
    if (this.persisting?.persists(event.op)) throw errnoError(this.persisting.code, event.op, event.path)
    if (event.op === 'write' && this.pendingWriteErrno !== undefined) {
      const code = this.pendingWriteErrno
      this.pendingWriteErrno = undefined
      throw errnoError(code, event.op, event.path)
    }
    const fault = this.options.fault
    if (!mutating || fault === undefined || event.index !== fault.at) return
    this.fired = true
    if (fault.kind !== 'errno') {
      this.crashed = true
      throw new CrashError(`${fault.kind} at mutating operation ${fault.at}: ${event.op} ${event.path}`)
    }
    if (fault.persists !== undefined) this.persisting = { code: fault.code, persists: fault.persists }
    if (!(fault.shortWrite === true && event.op === 'write')) throw errnoError(fault.code, event.op, event.path)
    this.pendingWriteErrno = fault.code
  }

  /** enter() for a step of the guard's walk, made on the calling thread: never mutating, and beforeOp must not return a promise. */
  private enterSync(event: OpEvent): void {
    if (this.crashed) throw new CrashError(`refused ${event.op} ${event.path}: the process crashed earlier`)
    this.events.push(event)
    const pending = this.options.beforeOp?.(event)
    if (pending instanceof Promise) throw new Error(`FaultFs: beforeOp returned a promise at ${event.op} ${event.path}, a directory step the guard makes on the calling thread`)
    if (this.persisting?.persists(event.op)) throw errnoError(this.persisting.code, event.op, event.path)
  }

  private pathOf(handle: FileHandle): string {
    return this.handles.get(handle)?.path ?? '<unknown handle>'
  }

  private ino(path: string): number | undefined {
    try {
      return lstatSync(path).ino
    } catch {
      return undefined
    }
  }

  async open(given: string, flags: number, mode?: number): Promise<FileHandle> {
    const path = logicalPath(given)
    const mutating = isMutatingOpen(flags)
    await this.enter({ op: 'open', path, via: given, flags, index: undefined }, mutating)
    const existed = this.model !== undefined && (flags & constants.O_CREAT) !== 0 ? this.ino(path) !== undefined : true
    const handle = await this.base.open(given, flags, mode)
    this.handles.set(handle, { path, directory: (flags & (constants.O_DIRECTORY ?? 0)) !== 0 })
    if (!existed && this.model?.tracks(path)) this.model.created(path)
    return handle
  }

  openDirectorySync(given: string, flags: number): number {
    const path = logicalPath(given)
    this.enterSync({ op: 'open', path, via: given, flags, index: undefined })
    const fd = this.base.openDirectorySync(given, flags)
    this.fds.set(fd, path)
    return fd
  }

  closeSync(fd: number): void {
    this.enterSync({ op: 'close', path: this.fds.get(fd) ?? '<unknown descriptor>', index: undefined })
    this.base.closeSync(fd)
    this.fds.delete(fd)
  }

  async write(handle: FileHandle, data: Uint8Array, offset: number, length: number): Promise<number> {
    const event: OpEvent = { op: 'write', path: this.pathOf(handle), index: undefined }
    await this.enter(event, true)
    const fault = this.options.fault
    if (fault?.kind === 'errno' && fault.shortWrite === true && event.index === fault.at) {
      return this.base.write(handle, data, offset, Math.max(1, Math.floor(length / 2)))
    }
    return this.base.write(handle, data, offset, length)
  }

  async fsync(handle: FileHandle, onCallingThread?: boolean): Promise<void> {
    const opened = this.handles.get(handle)
    await this.enter({ op: 'fsync', path: this.pathOf(handle), index: undefined }, true)
    await this.base.fsync(handle, onCallingThread)
    if (this.model === undefined || opened === undefined) return
    if (opened.directory) this.model.dirSynced(opened.path)
    else this.model.fileSynced((await handle.stat()).ino, readFileSync(`/proc/self/fd/${handle.fd}`))
  }

  async fstat(handle: FileHandle): Promise<Stats> {
    await this.enter({ op: 'fstat', path: this.pathOf(handle), index: undefined }, false)
    return this.base.fstat(handle)
  }

  async ftruncate(handle: FileHandle, length: number): Promise<void> {
    await this.enter({ op: 'ftruncate', path: this.pathOf(handle), index: undefined }, true)
    return this.base.ftruncate(handle, length)
  }

  async close(handle: FileHandle): Promise<void> {
    await this.enter({ op: 'close', path: this.pathOf(handle), index: undefined }, false)
    await this.base.close(handle)
    this.handles.delete(handle)
  }

  async rename(givenFrom: string, givenTo: string): Promise<void> {
    const [from, to] = [logicalPath(givenFrom), logicalPath(givenTo)]
    await this.enter({ op: 'rename', path: from, to, via: givenFrom, viaTo: givenTo, index: undefined }, true)
    const ino = this.model === undefined ? undefined : this.ino(from)
    await this.base.rename(givenFrom, givenTo)
    if (ino !== undefined) this.model!.renamed(from, to, ino)
  }

  async link(givenFrom: string, givenTo: string): Promise<void> {
    const [from, to] = [logicalPath(givenFrom), logicalPath(givenTo)]
    await this.enter({ op: 'link', path: from, to, via: givenFrom, viaTo: givenTo, index: undefined }, true)
    const ino = this.model === undefined ? undefined : this.ino(from)
    await this.base.link(givenFrom, givenTo)
    this.secondNames.set(from, to)
    if (ino !== undefined) this.model!.linked(to, ino)
  }

  async unlink(given: string): Promise<void> {
    const path = logicalPath(given)
    await this.enter({ op: 'unlink', path, via: given, index: undefined }, true)
    const ino = this.model === undefined ? undefined : this.ino(path)
    await this.base.unlink(given)
    if (ino !== undefined) this.model!.removed(path, ino)
    // A handle opened at a name since linked elsewhere now writes the file of that other name.
    const other = this.secondNames.get(path)
    this.secondNames.delete(path)
    if (other !== undefined) for (const opened of this.handles.values()) if (opened.path === path) opened.path = other
  }

  async mkdir(given: string, mode?: number): Promise<void> {
    const path = logicalPath(given)
    await this.enter({ op: 'mkdir', path, via: given, index: undefined }, true)
    await this.base.mkdir(given, mode)
    if (this.model?.tracks(path)) this.model.created(path)
  }

  async rmdir(given: string): Promise<void> {
    const path = logicalPath(given)
    await this.enter({ op: 'rmdir', path, via: given, index: undefined }, true)
    const ino = this.model === undefined ? undefined : this.ino(path)
    await this.base.rmdir(given)
    if (ino !== undefined) this.model!.removed(path, ino)
  }

  async readdir(given: string): Promise<string[]> {
    const path = logicalPath(given)
    await this.enter({ op: 'readdir', path, via: given, index: undefined }, false)
    return this.base.readdir(given)
  }

  async lstat(given: string): Promise<Stats> {
    const path = logicalPath(given)
    await this.enter({ op: 'lstat', path, via: given, index: undefined }, false)
    return this.base.lstat(given)
  }

  async stat(given: string): Promise<Stats> {
    const path = logicalPath(given)
    await this.enter({ op: 'stat', path, via: given, index: undefined }, false)
    return this.base.stat(given)
  }

  async realpath(given: string): Promise<string> {
    const path = logicalPath(given)
    await this.enter({ op: 'realpath', path, via: given, index: undefined }, false)
    return this.base.realpath(given)
  }

  async readPrefix(given: string, maxBytes: number): Promise<FilePrefix> {
    const path = logicalPath(given)
    await this.enter({ op: 'readPrefix', path, via: given, index: undefined }, false)
    return this.base.readPrefix(given, maxBytes)
  }

  async readFile(given: string): Promise<Buffer> {
    const path = logicalPath(given)
    await this.enter({ op: 'readFile', path, via: given, index: undefined }, false)
    return this.base.readFile(given)
  }
}
