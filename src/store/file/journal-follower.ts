// Following the file store's journals (docs/adr/0396): per leg file, the device and inode it was
// read from, how far (the end of its last whole line) and how many lines. A poll lists the pending
// directory, lstats each leg and reads only the bytes past that offset; a torn tail waits for its
// newline. A leg that is now another file (its inode changed) or shorter than what was read, or that
// vanished while its journal did not, makes the journal be read again from its start. Nothing is
// ever written: empty legs are left for the next command that sweeps them.
import { constants } from 'node:fs'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { PathRefusedError } from '../../suite/errors.js'
import { CorruptJournalError } from '../errors.js'
import { JournalPlanner, type JournalPlace } from '../journal-planner.js'
import { leaseHolds } from '../live-writer.js'
import type { Pending } from '../journal.js'
import { pendingOf, type JournalReadCount, type PendingFollower } from '../pending-follower.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { documentOfRunExists } from './journal-reader.js'
import type { StorePaths } from './paths.js'

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const NEWLINE = 0x0a

interface LegRead {
  leg: number
  dev: number
  ino: number
  /** The end of the last whole line read. */
  offset: number
  lines: number
}

interface Followed {
  planner: JournalPlanner
  legs: LegRead[]
  refusal: DiglineErrorData | undefined
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export class FileJournalFollower implements PendingFollower {
  private readonly journals = new Map<string, Followed>()
  lastRead: JournalReadCount = { bytes: 0, rows: 0 }

  constructor(
    private readonly fs: FsLayer,
    private readonly paths: StorePaths,
    private readonly tenant: string,
    private readonly suite: string,
    private readonly legsByKey: () => Promise<Map<string, number[]>>,
  ) {}

  async poll(): Promise<Pending[]> {
    const read: JournalReadCount = { bytes: 0, rows: 0 }
    const byKey = await this.legsByKey()
    for (const key of [...this.journals.keys()]) if (!byKey.has(key)) this.journals.delete(key)
    const out: Pending[] = []
    for (const key of [...byKey.keys()].sort(compareText)) {
      const place = { tenant: this.tenant, suite: this.suite, key }
      const legs = byKey.get(key)!
      let followed = this.journals.get(key) ?? this.fresh(place)
      if (followed.refusal === undefined) {
        try {
          if (!(await this.advance(place, followed, legs, read))) {
            followed = this.fresh(place)
            await this.advance(place, followed, legs, read)
          }
        } catch (error) {
          if (!isDiglineError(error)) throw error
          followed.refusal = error.toData()
        }
      }
      this.journals.set(key, followed)
      let refusal = followed.refusal
      let finished = false
      try {
        finished = await documentOfRunExists(this.fs, this.paths, place)
      } catch (error) {
        if (!isDiglineError(error)) throw error
        refusal ??= error.toData()
      }
      const onDisk = followed.legs.filter((l) => l.lines > 0).map((l) => l.leg)
      if (onDisk.length === 0 && refusal === undefined) continue
      const leases = followed.planner.leases.map((l) => ({ ...l, live: leaseHolds(l.lease) }))
      out.push(pendingOf(place, followed.planner, { legs: onDisk, leases, finished, refusal }))
    }
    this.lastRead = read
    return out
  }

  private fresh(place: JournalPlace): Followed {
    return { planner: new JournalPlanner(place), legs: [], refusal: undefined }
  }

  /** Reads what each leg gained; false when the journal must be read again from its start. */
  private async advance(place: JournalPlace, followed: Followed, legs: readonly number[], read: JournalReadCount): Promise<boolean> {
    const highest = followed.legs.reduce((n, l) => Math.max(n, l.leg), 0)
    if (followed.legs.some((l) => !legs.includes(l.leg))) return false
    if (legs.some((leg) => leg < highest && !followed.legs.some((l) => l.leg === leg))) return false
    for (const leg of legs) {
      const file = this.paths.journalLegFile(place.tenant, place.suite, place.key, leg)
      let known = followed.legs.find((l) => l.leg === leg)
      let stats
      try {
        stats = await this.fs.lstat(file)
      } catch (error) {
        if (errnoOf(error) === 'ENOENT') {
          if (known !== undefined) return false
          continue
        }
        throw unreadableLeg(place, file, `cannot be read (${errnoOf(error) ?? String(error)})`)
      }
      if (stats.isSymbolicLink())
        throw new PathRefusedError(`refused the journal leg ${file}: it is a symlink, and the store never follows a path out of itself`, `remove the symlink ${file}`)
      if (!stats.isFile()) throw unreadableLeg(place, file, 'is not a regular file')
      if (known !== undefined && (known.dev !== stats.dev || known.ino !== stats.ino || stats.size < known.offset)) return false
      if (known === undefined) {
        known = { leg, dev: stats.dev, ino: stats.ino, offset: 0, lines: 0 }
        followed.legs.push(known)
        followed.legs.sort((a, b) => a.leg - b.leg)
      }
      if (stats.size === known.offset) continue
      const bytes = await this.readFrom(place, file, known, stats.size - known.offset)
      if (bytes === undefined) return false
      read.bytes += bytes.length
      const used = followed.planner.addLeg({ leg, file, bytes }, known.lines + 1)
      for (let i = bytes.indexOf(NEWLINE); i >= 0 && i < used; i = bytes.indexOf(NEWLINE, i + 1)) known.lines++
      known.offset += used
    }
    return true
  }

  /** `length` bytes of the leg from what was read on; undefined when the file is no longer the one followed. */
  private async readFrom(place: JournalPlace, file: string, known: LegRead, length: number): Promise<Buffer | undefined> {
    let handle
    try {
      handle = await this.fs.open(file, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0))
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      throw unreadableLeg(place, file, `cannot be read (${errnoOf(error) ?? String(error)})`)
    }
    try {
      const stats = await this.fs.fstat(handle)
      if (stats.dev !== known.dev || stats.ino !== known.ino || stats.size < known.offset) return undefined
      const bytes = Buffer.alloc(length)
      let filled = 0
      while (filled < length) {
        const { bytesRead } = await handle.read(bytes, filled, length - filled, known.offset + filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return bytes.subarray(0, filled)
    } finally {
      await this.fs.close(handle)
    }
  }
}

function unreadableLeg(place: JournalPlace, file: string, why: string): CorruptJournalError {
  return new CorruptJournalError(
    `refused the journal of run ${place.key} (suite ${place.suite}, tenant ${place.tenant}): ${file} ${why}; the journal is left on disk as it is`,
    `inspect ${file}; a journal is never repaired: to give up the cases it holds, remove the run's legs, then run the suite again`,
  )
}
