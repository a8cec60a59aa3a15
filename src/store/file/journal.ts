// The journal as files: one leg per attempt at a run under runs/<suite>/.pending/. A leg is written
// under a temp name first (its header and declared cases, fsynced) and then linked to its own name,
// which fails when the name exists: two processes can never write one leg, and no reader ever sees a
// leg without its header (ADR 0560). Records that arrive together (several slots finishing at once)
// share one write and one fsync: a group commit.
import { constants } from 'node:fs'
import { guardedRead, guardedWrite } from './guarded-io.js'
import { beneathRoot } from './beneath-root.js'
import { ensureGitignore } from './gitignore.js'
import { dirname } from 'node:path'
import type { CaseProgress } from '../../document/case-progress.js'
import { JournalLegExistsError, RunNotFoundError, StoreWriteError } from '../errors.js'
import { keyFor } from '../../suite/keys.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { ensureDirectory, fsyncDirectory, holdTemp, isTempName, removeCreatedDirectories, storeWriteError, sweepAbandonedTemps, tempNameFor } from './atomic-write.js'
import { errnoOf, nodeFsLayer, type FileHandle, type FsLayer } from './fs-layer.js'
import { assertJournalHeaderWithinBound } from '../header-bounds.js'
import { encodeCase, encodeDeclared, encodeHeader, encodeObserved, heldObserved, parseLegName, sameObserved } from '../journal-format.js'
import type { Observed } from '../../document/schema.js'
import { documentOfRunExists, readJournal, readJournalCases, type JournalPlace, type LegBytes } from './journal-reader.js'
import type { Journal, JournalOpening, Pending, PendingCases, SupportsJournal } from '../journal.js'
import { StorePaths } from './paths.js'
import { FileJournalFollower } from './journal-follower.js'
import type { PendingFollower } from '../pending-follower.js'
import { unreadableRun } from '../run-checks.js'
import { FileRemovalRecords, runRemovedError } from './removal-records.js'
import { endOfTurn } from '../end-of-turn.js'

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const LEG_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_APPEND | O_NOFOLLOW
const LEG_MODE = 0o644

export interface FileJournalOptions {
  /** The store directory, or the StorePaths of the store that owns the journal. */
  root: string | StorePaths
  fs?: FsLayer
  /** Where a note about a swept empty leg goes (stderr by default). */
  onSwept?: (line: string) => void
}

export class FileJournal implements SupportsJournal {
  readonly paths: StorePaths
  private readonly fs: FsLayer
  private readonly records: FileRemovalRecords
  private readonly onSwept: (line: string) => void
  /** The legs this store has open (each holds a file handle), so closing the store closes them. */
  readonly open = new Set<{ close(): Promise<void> }>()

  constructor(options: FileJournalOptions) {
    this.onSwept = options.onSwept ?? ((line) => process.stderr.write(`${line}\n`))
    this.paths = typeof options.root === 'string' ? new StorePaths(options.root) : options.root
    this.fs = beneathRoot(options.fs ?? nodeFsLayer, this.paths.root)
    this.records = new FileRemovalRecords(this.paths, this.fs)
  }

  async openJournal(opening: JournalOpening, leg: number): Promise<Journal> {
    const { declared, ...header } = opening
    const key = keyFor(header.created_at, header.config_hash)
    const place = { tenant: header.tenant, suite: header.suite, key }
    const file = this.paths.journalLegFile(place.tenant, place.suite, key, leg)
    const headerLine = encodeHeader(place, { ...header, leg })
    assertJournalHeaderWithinBound({ ...header, leg }, headerLine.length)
    const declaredLine = encodeDeclared(place, declared)
    const dir = dirname(file)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, this.paths.gitignoreFile()))
    await this.records.assertNotRemoved(place, 'open a journal leg of')

    const created: string[] = []
    let gitignoreCreated = false
    let journal: FileJournalLeg | undefined
    const temp = tempNameFor(file)
    const releaseTemp = holdTemp(temp)
    let linked = false
    try {
      created.push(...(await ensureDirectory(this.fs, this.paths.root)))
      gitignoreCreated = await ensureGitignore(this.fs, this.paths)
      created.push(...(await ensureDirectory(this.fs, dir)))
      await sweepAbandonedTemps(this.fs, dir)
      journal = new FileJournalLeg(this.fs, this, place, leg, file, await this.createTemp(temp, file))
      // Header and declared cases in one write, before the leg has its name: a leg never holds a case
      // record without both, and another process's sweep never finds it empty (ADR 0560).
      await journal.writeHeader(Buffer.concat([headerLine, declaredLine]))
      await this.linkLeg(temp, file, place, leg)
      linked = true
      await this.fs.unlink(temp).catch((error: unknown) => {
        throw storeWriteError('creating the journal leg', file, error)
      })
      await fsyncDirectory(this.fs, dir)
      // A delete may have recorded the key while the leg was being created: the leg is taken back below.
      await this.records.assertNotRemoved(place, 'open a journal leg of')
      this.open.add(journal)
      return journal
    } catch (error) {
      // Nothing of this leg is worth keeping yet: leave the store as it was.
      if (journal !== undefined) {
        await journal.close()
        await this.fs.unlink(temp).catch(() => undefined)
        if (linked) await this.fs.unlink(file).catch(() => undefined)
        await fsyncDirectory(this.fs, dir).catch(() => undefined)
      }
      if (gitignoreCreated) await this.fs.unlink(this.paths.gitignoreFile()).catch(() => undefined)
      await removeCreatedDirectories(this.fs, created)
      throw error
    } finally {
      releaseTemp()
    }
  }

  private async createTemp(temp: string, file: string): Promise<FileHandle> {
    try {
      return await this.fs.open(temp, LEG_FLAGS, LEG_MODE)
    } catch (error) {
      throw storeWriteError('creating the journal leg', file, error)
    }
  }

  private async linkLeg(temp: string, file: string, place: JournalPlace, leg: number): Promise<void> {
    try {
      await this.fs.link(temp, file)
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw storeWriteError('creating the journal leg', file, error)
      throw new JournalLegExistsError(
        `refused to open leg ${leg} of run ${place.key} (suite ${place.suite}): another process is resuming run ${place.key} (leg ${leg} exists at ${file})`,
        `wait for that process to finish, or run \`digline pending\` to see run ${place.key} and its legs`,
        ['leg'],
      )
    }
  }

  pending(tenant: string, suite: string): Promise<Pending[]> {
    return this.eachJournal(tenant, suite, async (place, legs) => {
      const { emptyLegs, ...journal } = await readJournal(this.fs, this.paths, place, legs)
      return { journal, emptyLegs }
    })
  }

  pendingCases(tenant: string, suite: string): Promise<PendingCases[]> {
    return this.eachJournal(tenant, suite, async (place, legs) => {
      const { emptyLegs, ...journal } = await readJournalCases(this.fs, this.paths, place, legs)
      return { journal, emptyLegs }
    })
  }

  private async eachJournal<T extends { legs: number[]; refusal: unknown }>(
    tenant: string,
    suite: string,
    read: (place: JournalPlace, legs: readonly number[]) => Promise<{ journal: T; emptyLegs: LegBytes[] }>,
  ): Promise<T[]> {
    const byKey = await this.legsByKey(tenant, suite)
    const keys = [...byKey.keys()].sort(compareText)
    const out: T[] = []
    for (const key of keys) {
      const { journal, emptyLegs } = await read({ tenant, suite, key }, byKey.get(key)!)
      await this.removeEmptyLegs(tenant, suite, emptyLegs)
      // Every leg vanished since the listing: the run completed meanwhile.
      if (journal.legs.length > 0 || journal.refusal !== undefined) out.push(journal)
    }
    return out
  }

  followPending(tenant: string, suite: string): PendingFollower {
    return new FileJournalFollower(this.fs, this.paths, tenant, suite, () => this.legsByKey(tenant, suite))
  }

  async dropPending(tenant: string, suite: string, key: string): Promise<void> {
    const runFile = this.paths.runFile(tenant, suite, key)
    const legs = (await this.legsByKey(tenant, suite)).get(key)
    if (legs === undefined) return
    // Strict: a journal this digline cannot read is refused here rather than deleted on a guess.
    const { emptyLegs, ...pending } = await readJournal(this.fs, this.paths, { tenant, suite, key }, legs, true)
    await this.removeEmptyLegs(tenant, suite, emptyLegs)
    if (pending.legs.length === 0) return
    if (!pending.finished) {
      throw new RunNotFoundError(
        `refused to remove the journal of run ${key} (suite ${suite}): its run document ${runFile} does not exist, so the journal holds the only copy of its judged cases`,
        `digline run --resume ${key} --suite ${suite}`,
        ['key'],
      )
    }
    await this.removeLegs({ tenant, suite, key })
  }

  async listSuites(tenant: string): Promise<string[]> {
    const dir = this.paths.runsDir(tenant)
    await guardedRead(dir, () => this.paths.assertInsideStore(this.fs, dir), unreadableRun)
    const suites: string[] = []
    for (const name of await this.readdirIfExists(dir)) {
      if (!isSafeSegment(name)) continue
      const path = this.paths.suiteRunsDir(tenant, name)
      const stats = await guardedRead(path, () => this.fs.lstat(path), unreadableRun)
      if (stats.isDirectory()) suites.push(name)
    }
    return suites.sort(compareText)
  }

  /**
   * Removes legs that hold nothing (empty, or a torn header fragment: see isProvablyEmpty), saying so
   * through `onSwept`. A leg that grew since it was read is left: its writer is writing it.
   */
  private async removeEmptyLegs(tenant: string, suite: string, legs: readonly LegBytes[]): Promise<void> {
    let removed = 0
    for (const { file, bytes } of legs) {
      try {
        const stats = await this.fs.lstat(file)
        if (!stats.isFile() || stats.size !== bytes.length) continue
        await this.fs.unlink(file)
      } catch (error) {
        if (errnoOf(error) === 'ENOENT') continue
        throw storeWriteError('removing the empty journal leg', file, error, 'the leg holds no record; the next command removes it')
      }
      removed++
      this.onSwept(`digline: removed the journal leg ${file}: it held no whole line (its process was killed while creating it), so no judged case was in it`)
    }
    if (removed > 0) await fsyncDirectory(this.fs, this.paths.pendingDir(tenant, suite))
  }

  /** Unlinks every leg of the run, whichever process wrote it, once its document exists. */
  async removeLegs(place: JournalPlace): Promise<void> {
    const runFile = this.paths.runFile(place.tenant, place.suite, place.key)
    if (!(await documentOfRunExists(this.fs, this.paths, place))) {
      const removal = await this.records.find(place)
      if (removal !== undefined) throw runRemovedError(place, removal, 'finish')
      throw new RunNotFoundError(
        `refused to remove the journal of run ${place.key} (suite ${place.suite}): its run document ${runFile} does not exist`,
        `digline run --resume ${place.key} --suite ${place.suite}`,
        ['key'],
      )
    }
    const legs = (await this.legsByKey(place.tenant, place.suite)).get(place.key) ?? []
    const outcome = 'the run document is written; the legs left are reported as finished and removed by the next run'
    for (const leg of legs) {
      const file = this.paths.journalLegFile(place.tenant, place.suite, place.key, leg)
      try {
        await this.fs.unlink(file)
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw storeWriteError('removing the journal leg', file, error, outcome)
      }
    }
    if (legs.length > 0) await fsyncDirectory(this.fs, this.paths.pendingDir(place.tenant, place.suite), outcome)
  }

  private async legsByKey(tenant: string, suite: string): Promise<Map<string, number[]>> {
    const dir = this.paths.pendingDir(tenant, suite)
    await guardedRead(dir, () => this.paths.assertInsideStore(this.fs, dir), unreadableRun)
    const byKey = new Map<string, number[]>()
    for (const name of await this.readdirIfExists(dir)) {
      if (isTempName(name)) continue
      const parsed = parseLegName(name)
      if (parsed === undefined) continue
      const legs = byKey.get(parsed.key) ?? []
      legs.push(parsed.leg)
      byKey.set(parsed.key, legs)
    }
    for (const legs of byKey.values()) legs.sort((a, b) => a - b)
    return byKey
  }

  private async readdirIfExists(dir: string): Promise<string[]> {
    try {
      return await this.fs.readdir(dir)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return []
      throw unreadableRun(dir, `the directory cannot be listed (${errnoOf(error) ?? String(error)})`)
    }
  }
}

/** An append waiting for the batch that will carry its lines. */
interface Waiting {
  caseId: string
  lines: Buffer[]
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * One open leg. Appends are written in the order they were called; those that arrive while a batch
 * is being written and fsynced, or (once appends have overlapped) in the same turn of the event
 * loop, go together in one batch (one write, one fsync), and each resolves only once the fsync that
 * covers its bytes has returned. After a failed batch the leg takes nothing more.
 */
class FileJournalLeg implements Journal {
  private handle: FileHandle | undefined
  /** Bytes of whole records in the leg, so a partial batch can be cut back off. */
  private size = 0
  /** The observed identities of the last append queued: what the leg holds once the queue is written. */
  private lastObserved: Observed | undefined
  private failure: StoreWriteError | undefined
  private tail: Promise<unknown> = Promise.resolve()
  /** The batch that appends join: scheduled on `tail`, not yet being written. */
  private gathering: Waiting[] | undefined
  /** A batch is being written and fsynced. */
  private writing = false
  /**
   * An append came while another batch was gathering or being written: the leg has slots running
   * side by side, so a batch waits for the end of its turn to take the others' records (ADR 0557).
   * A leg whose appends come one at a time never waits, and neither does an append made alone.
   */
  private overlapping = false

  constructor(
    private readonly fs: FsLayer,
    private readonly owner: FileJournal,
    private readonly place: JournalPlace,
    readonly leg: number,
    readonly file: string,
    handle: FileHandle,
  ) {
    this.handle = handle
  }

  get key(): string {
    return this.place.key
  }

  writeHeader(line: Buffer): Promise<void> {
    return this.serialized(() => this.writeBatch(line))
  }

  append({ result, cause, observed }: CaseProgress, alone = false): Promise<void> {
    const changed = this.lastObserved === undefined || !sameObserved(this.lastObserved, observed)
    let lines: Buffer[]
    try {
      lines = changed ? [encodeObserved(this.place, observed)] : []
      lines.push(encodeCase(this.place, result, cause))
    } catch (error) {
      return Promise.reject(error as Error)
    }
    if (changed) this.lastObserved = heldObserved(observed)
    return new Promise<void>((resolve, reject) => {
      const entry = { caseId: result.case_id, lines, resolve, reject }
      if (this.gathering !== undefined || this.writing) this.overlapping = true
      if (this.gathering !== undefined) return void this.gathering.push(entry)
      const batch = [entry]
      // No other case of the run is being asked and no batch is on the disk: nothing could join this
      // one, so it is written at once and its fsync waited for on this thread (ADR 0563).
      const atOnce = alone && !this.writing
      void this.serialized(async () => {
        if (this.overlapping && !atOnce) await endOfTurn()
        await this.writeBatchOf(batch, atOnce)
      })
      this.gathering = batch
    })
  }

  complete(): Promise<void> {
    return this.serialized(async () => {
      await this.closeHandle()
      await this.owner.removeLegs(this.place)
    })
  }

  close(): Promise<void> {
    return this.serialized(() => this.closeHandle())
  }

  /** Queues a step after everything called before it; an append called after it goes after it too. */
  private serialized(step: () => Promise<void>): Promise<void> {
    this.gathering = undefined
    const run = this.tail.then(step)
    this.tail = run.catch(() => undefined)
    return run
  }

  /** Writes the appends gathered in `batch` at once; settles each append's promise. */
  private async writeBatchOf(batch: Waiting[], onCallingThread: boolean): Promise<void> {
    if (this.gathering === batch) this.gathering = undefined
    if (this.failure !== undefined) {
      const failure = this.failure
      for (const entry of batch) {
        entry.reject(
          new StoreWriteError(
            `refused to append case ${entry.caseId} to the journal leg ${this.file}: an earlier append failed with ${failure.errno ?? 'an error'}, and the leg takes no more records so a partial line is never joined to the next one`,
            failure.next,
            failure.errno,
          ),
        )
      }
      return
    }
    if (this.handle === undefined) {
      for (const entry of batch) entry.reject(new Error(`the journal leg ${this.file} is closed; case ${entry.caseId} was not journaled`))
      return
    }
    const lines = batch.flatMap((entry) => entry.lines)
    try {
      this.writing = true
      await this.writeBatch(lines.length === 1 ? lines[0]! : Buffer.concat(lines), onCallingThread)
    } catch (error) {
      for (const entry of batch) entry.reject(error)
      return
    } finally {
      this.writing = false
    }
    for (const entry of batch) entry.resolve()
  }

  private async writeBatch(bytes: Buffer, onCallingThread = false): Promise<void> {
    const handle = this.handle!
    let written = 0
    try {
      while (written < bytes.length) {
        const taken = await this.fs.write(handle, bytes, written, bytes.length - written)
        if (taken <= 0) throw Object.assign(new Error('write() accepted no bytes'), { code: 'EIO' })
        written += taken
      }
      await this.fs.fsync(handle, onCallingThread)
      // A leg removed under its writer (swept as empty, or deleted) would journal nothing from here on.
      // The link count is read once the fsync returned: an fstat of the open handle waits for nothing
      // (ADR 0440), and a removal right after it is as possible as one during the fsync.
      const stats = await this.fs.fstat(handle)
      if (stats.nlink === 0 && !(await this.filedByAnother())) {
        throw Object.assign(new Error(`the leg ${this.file} was removed while it was being written`), { code: 'ENOENT' })
      }
    } catch (error) {
      this.failure = storeWriteError('appending a record to the journal leg', this.file, error, 'every earlier record of the leg is intact, and it takes no more records')
      if (written > 0) await this.cutBack(handle)
      throw this.failure
    }
    this.size += bytes.length
  }

  /**
   * Whether the leg was removed because its run was filed: another shard saw every case journaled
   * (this record among them, read from the page cache before our fsync returned), wrote the
   * document and removed the legs. The record is then durable in the document, and the append holds.
   */
  private filedByAnother(): Promise<boolean> {
    return documentOfRunExists(this.fs, this.owner.paths, this.place)
  }

  /** Best effort: a partial batch left behind is still only a torn tail to the reader. */
  private async cutBack(handle: FileHandle): Promise<void> {
    try {
      await this.fs.ftruncate(handle, this.size)
      await this.fs.fsync(handle)
    } catch {
      // Already failing; the first error is the one to report.
    }
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle
    if (handle === undefined) return
    this.handle = undefined
    this.owner.open.delete(this)
    try {
      await this.fs.close(handle)
    } catch {
      // Every record was fsynced before this; a failed close loses nothing.
    }
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
