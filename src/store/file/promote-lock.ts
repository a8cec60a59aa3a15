// The file store's promotion lock: `.digline/<tenant>/.promote.lock`, held while a promotion checks
// the baseline, writes it and appends the register line, so two promotions never interleave.
// The lock names its holder (host, boot, pid and the process's start time) and is published whole
// with link(2), so it never exists half-written; a lock whose holder is provably gone (same host and
// boot, and no process with that pid and start time) is broken by the next promoter (docs/adr/0027).
import { randomBytes } from 'node:crypto'
import { link } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { constants } from 'node:fs'
import { isDiglineError } from '../../errors/base.js'
import { PromotionInProgressError } from './errors.js'
import { storeWriteError } from './atomic-write.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { bootId, processHolds, processStartTime } from '../live-writer.js'

export interface LockHolder {
  host: string
  boot: string | null
  pid: number
  /** Clock ticks since boot when the process started (/proc/<pid>/stat field 22); null off Linux. */
  start: number | null
  since: string
  /** This acquisition: within one process, a lock whose token is not held any more is provably gone. */
  token: string
}

/** Tokens of the locks (and lock drafts) this process holds right now. */
const HELD = new Set<string>()

const DRAFT_NAME = /^\.promote\.lock\.(\d+)-(\d+|x)\.([0-9a-f]+)\.tmp$/

const WAIT_MS = 60_000

export function thisHolder(): LockHolder {
  return { host: hostname(), boot: bootId(), pid: process.pid, start: processStartTime(process.pid), since: new Date().toISOString(), token: randomBytes(8).toString('hex') }
}

/** Whether a process (pid and start time) of this host is gone; a token of this process is judged by HELD. */
function processIsGone(pid: number, start: number | null, token: string | undefined): boolean {
  if (pid === process.pid && (start === null || start === processStartTime(process.pid))) return token !== undefined && !HELD.has(token)
  return !processHolds(pid, start)
}

/** Whether a holder is provably gone: only a process of this host and this boot can be judged. */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false
  const boot = bootId()
  if (holder.boot !== null && boot !== null && holder.boot !== boot) return true
  return processIsGone(holder.pid, holder.start, holder.token)
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>
    if (typeof value.host === 'string' && typeof value.pid === 'number') {
      return { host: value.host, boot: value.boot ?? null, pid: value.pid, start: value.start ?? null, since: String(value.since ?? ''), token: String(value.token ?? '') }
    }
  } catch {
    // A lock is published whole by link(2); text that is not a holder was not written by digline.
  }
  return undefined
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class PromoteLock {
  constructor(
    private readonly fs: FsLayer,
    private readonly file: string,
    private readonly waitMs = WAIT_MS,
    private readonly say: (line: string) => void = () => undefined,
  ) {}

  /** Runs `step` while holding the lock; waits for a live holder, breaks a provably stale one. */
  async holding<T>(step: () => Promise<T>): Promise<T> {
    const me = thisHolder()
    HELD.add(me.token)
    try {
      const ino = await this.acquire(me)
      let result: T
      try {
        await this.sweepDrafts()
        result = await step()
      } catch (error) {
        await this.release(ino)
        throw error
      }
      // The step has made its last write and succeeded (for a promotion, its commit point): a failed
      // release undoes nothing and only leaves a lock whose token this process no longer holds, which
      // processIsGone judges stale, so it is said rather than thrown.
      const failed = await this.release(ino)
      if (failed !== undefined) {
        this.say(
          `digline: removing the promotion lock ${this.file} failed with ${failed} after the work it guarded was done; nothing is undone, and the next promotion breaks the lock (in another process, once this one has ended)`,
        )
      }
      return result
    } finally {
      HELD.delete(me.token)
    }
  }

  private async acquire(me: LockHolder): Promise<number> {
    const deadline = Date.now() + this.waitMs
    const draft = `${this.file}.${me.pid}-${me.start ?? 'x'}.${me.token}.tmp`
    let ino: number
    try {
      ino = await this.writeDraft(draft, me)
      await this.publish(draft, deadline)
    } catch (error) {
      await this.fs.unlink(draft).catch(() => undefined)
      throw this.lockError('taking the promotion lock', error)
    }
    // The lock is ours; a draft left beside it would be a temp file, so failing to remove it fails the
    // promotion before anything else is written, and the lock goes with it.
    try {
      await this.fs.unlink(draft)
    } catch (error) {
      await this.release(ino)
      await this.fs.unlink(draft).catch(() => undefined)
      throw this.lockError('removing the draft of the promotion lock', error, draft)
    }
    return ino
  }

  /** Writes the holder to `draft` whole and durably; returns its inode, the lock's once linked. */
  private async writeDraft(draft: string, me: LockHolder): Promise<number> {
    const text = `${JSON.stringify(me)}\n`
    const handle = await this.fs.open(draft, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o644)
    try {
      await this.fs.write(handle, Buffer.from(text), 0, Buffer.byteLength(text))
      await this.fs.fsync(handle)
      return (await this.fs.fstat(handle)).ino
    } finally {
      await this.fs.close(handle)
    }
  }

  /** Links `draft` as the lock: waits for a live holder, breaks a provably stale one. */
  private async publish(draft: string, deadline: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(draft, this.file)
        return
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') throw error
      }
      const held = await this.judge()
      if (held === 'gone') continue
      if (Date.now() > deadline) {
        const who = held === undefined ? 'another process' : `process ${held.pid} on ${held.host} (since ${held.since})`
        throw new PromotionInProgressError(
          `refused to promote: ${who} has held the promotion lock ${this.file} for more than ${this.waitMs / 1000} s; nothing was written`,
          held === undefined
            ? `wait for the other promotion to finish, then run the command again`
            : `wait for process ${held.pid} to finish (or end it), then run the command again`,
        )
      }
      await sleep(10 + Math.floor(Math.random() * 40) + Math.min(attempt, 20) * 5)
    }
  }

  private lockError(what: string, error: unknown, path = this.file): Error {
    return isDiglineError(error) ? error : storeWriteError(what, path, error, 'nothing was promoted; the baseline and the register are as they were')
  }

  /** The holder of the lock as it is, or 'gone' when it was stale and has been taken away. */
  private async judge(): Promise<LockHolder | undefined | 'gone'> {
    let ino: number
    let holder: LockHolder | undefined
    try {
      ino = (await this.fs.lstat(this.file)).ino
      holder = parseHolder((await this.fs.readFile(this.file)).toString('utf8'))
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return 'gone'
      throw error
    }
    if (holder === undefined || !holderIsGone(holder)) return holder
    // Take the stale lock aside, then make sure it was the one judged, not a fresh one put there since.
    const aside = `${this.file}.${process.pid}-${processStartTime(process.pid) ?? 'x'}.${randomBytes(8).toString('hex')}.tmp`
    try {
      await this.fs.rename(this.file, aside)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return 'gone'
      throw error
    }
    const asideIno = await this.fs.lstat(aside).then(
      (stats) => stats.ino,
      () => ino,
    )
    if (asideIno !== ino) await link(aside, this.file).catch(() => undefined)
    await this.fs.unlink(aside).catch(() => undefined)
    return 'gone'
  }

  /** Drafts and set-aside locks that crashed promoters left in the tenant directory. */
  private async sweepDrafts(): Promise<void> {
    const dir = dirname(this.file)
    for (const name of await this.fs.readdir(dir).catch(() => [] as string[])) {
      const match = DRAFT_NAME.exec(name)
      if (match === null) continue
      const start = match[2] === 'x' ? null : Number(match[2])
      if (processIsGone(Number(match[1]), start, match[3])) await this.fs.unlink(join(dir, name)).catch(() => undefined)
    }
  }

  /** Removes the lock if it is still the one taken; returns the errno of a failure, not throwing it. */
  private async release(ino: number): Promise<string | undefined> {
    try {
      if ((await this.fs.lstat(this.file)).ino === ino) await this.fs.unlink(this.file)
      return undefined
    } catch (error) {
      return errnoOf(error) === 'ENOENT' ? undefined : (errnoOf(error) ?? String(error))
    }
  }
}
