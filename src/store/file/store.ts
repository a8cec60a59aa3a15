// The embedded default store: run documents as files under `.digline/` (SPEC §4).
import { basename, join } from 'node:path'
import { guardedWrite } from './guarded-io.js'
import { beneathRoot, holdingDirectory } from './beneath-root.js'
import { ensureGitignore } from './gitignore.js'
import type { RunDocument } from '../../document/schema.js'
import { runLines } from '../../document/serialize.js'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { PathRefusedError } from '../../suite/errors.js'
import { RunNotFoundError } from '../errors.js'
import { keyFor } from '../../suite/keys.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { ensureDirectory, fsyncDirectory, removeCreatedDirectories, writeFileAtomic } from './atomic-write.js'
import { errnoOf, nodeFsLayer, type FsLayer } from './fs-layer.js'
import { readRunHeader } from './header-reader.js'
import { StorePaths, assertSafeSegment } from './paths.js'
import type { ListedRun, PromotionRequest, PromotionResult, RunListing, RunScan, Store, StoredRun, SuiteRetirement } from '../contract.js'
import { FileSuites } from './suites.js'
import { createdAtNow } from '../../suite/keys.js'
import type { StoredBaseline } from '../baselines.js'
import { FileBaselines } from './baselines.js'
import { FileJournal } from './journal.js'
import type { Journal, JournalOpening, Pending, PendingCases } from '../journal.js'
import type { PendingFollower } from '../pending-follower.js'
import { assertDocumentHeaderWithinBound } from '../header-bounds.js'
import type { BaselineDocument, RegisterEntry } from '../../document/baseline.js'
import { assertFiledUnder, ownKeyOf, parseJsonText, unreadableRun, validateDocument } from '../run-checks.js'
import { FileDelete } from './delete.js'
import { mapLimited } from '../map-limited.js'
import type { Removal, RemovalNotice, RunRef } from '../removal.js'
import { FileRemovalRecords, runRemovedError } from './removal-records.js'
import { FileCache } from './cache.js'
import { checkRunToWrite } from '../run-to-write.js'
import { closable } from '../closable.js'
import type { CacheEntry } from '../../suite/cache-key.js'
import { FileReviews } from './reviews.js'
import type { ReviewRecord } from '../review.js'
import type { StoredReview } from '../contract.js'
import type { ToolRecording } from '../../suite/tool-replay.js'
import { FileToolRecordings } from './tool-recordings.js'

/** Headers read at once while listing: enough to hide latency, few enough to stay under fd limits. */
const LISTING_CONCURRENCY = 16

export interface FileResultStoreOptions {
  /** The store directory (`.digline`); relative paths resolve against the working directory. */
  root: string
  fs?: FsLayer
  /** Where the store says what it recovered by itself (default: a line on stderr). */
  say?: (line: string) => void
}

interface RunFileEntry {
  file: string
  fileKey: string
}

export class FileResultStore implements Store {
  readonly paths: StorePaths
  private readonly fs: FsLayer
  private readonly baselines: FileBaselines
  private readonly journal: FileJournal
  private readonly records: FileRemovalRecords
  private readonly deletes: FileDelete
  private readonly suites: FileSuites
  private readonly cache: FileCache
  private readonly reviews: FileReviews
  private readonly tools: FileToolRecordings

  constructor(options: FileResultStoreOptions) {
    this.paths = new StorePaths(options.root)
    this.fs = beneathRoot(options.fs ?? nodeFsLayer, options.root)
    this.journal = new FileJournal({ root: this.paths, fs: this.fs })
    this.records = new FileRemovalRecords(this.paths, this.fs)
    const say = options.say ?? ((line: string) => void process.stderr.write(`${line}\n`))
    this.baselines = new FileBaselines(this.paths, this.fs, { removalOf: (ref) => this.records.find(ref), say })
    this.suites = new FileSuites(this.paths, this.fs)
    this.cache = new FileCache(this.paths, this.fs)
    this.reviews = new FileReviews(this.paths, this.fs, this.records)
    this.tools = new FileToolRecordings(this.paths, this.fs)
    this.deletes = new FileDelete(this.paths, this.fs, this.baselines, this.records)
    return closable(this, () => `the file store ${this.paths.root}`)
  }

  /** Closes the journal legs still open (their file handles); nothing else is held between operations. */
  async close(): Promise<void> {
    await Promise.all([...this.journal.open].map((leg) => leg.close()))
  }

  async deleteRun(tenant: string, suite: string, key: string): Promise<Removal> {
    const removal = await this.deletes.deleteRun(tenant, suite, key)
    // After the runs: a delete stopped in between is finished by calling it again, which forgets again.
    for (const run of [removal.run, ...removal.replays]) {
      await this.cache.forgetRunAnswers(tenant, run.ref.suite, run.ref.key)
      // Only a removed run's labels: a delete that found nothing wrote no record, and labels nothing.
      if ((await this.records.find(run.ref)) !== undefined) await this.reviews.forgetRunReviews(tenant, run.ref.suite, run.ref.key)
      await this.tools.forgetRunRecordings(tenant, run.ref.suite, run.ref.key)
    }
    return removal
  }

  appendReview(review: ReviewRecord): Promise<StoredReview> {
    return this.reviews.appendReview(review)
  }
  listReviews(tenant: string, suite: string, key?: string): Promise<ReviewRecord[]> {
    return this.reviews.listReviews(tenant, suite, key)
  }
  removalOf(tenant: string, suite: string, key: string): Promise<RemovalNotice | undefined> {
    return this.records.find({ tenant, suite, key })
  }

  openJournal(opening: JournalOpening, leg: number): Promise<Journal> {
    return this.journal.openJournal(opening, leg)
  }
  pending(tenant: string, suite: string): Promise<Pending[]> {
    return this.journal.pending(tenant, suite)
  }

  pendingCases(tenant: string, suite: string): Promise<PendingCases[]> {
    return this.journal.pendingCases(tenant, suite)
  }

  followPending(tenant: string, suite: string): PendingFollower {
    return this.journal.followPending(tenant, suite)
  }
  dropPending(tenant: string, suite: string, key: string): Promise<void> {
    return this.journal.dropPending(tenant, suite, key)
  }
  listSuites(tenant: string): Promise<string[]> {
    return this.journal.listSuites(tenant)
  }

  readBaseline(tenant: string, suite: string): Promise<BaselineDocument | undefined> {
    return this.baselines.readBaseline(tenant, suite)
  }
  retireSuite(tenant: string, suite: string): Promise<SuiteRetirement> {
    return this.suites.retireSuite(tenant, suite, createdAtNow())
  }
  retirementOf(tenant: string, suite: string): Promise<SuiteRetirement | undefined> {
    return this.suites.retirementOf(tenant, suite)
  }
  retiredSuites(tenant: string): Promise<SuiteRetirement[]> {
    return this.suites.retiredSuites(tenant)
  }

  cachedAnswer(tenant: string, suite: string, caseId: string, key: string): Promise<CacheEntry | undefined> {
    return this.cache.cachedAnswer(tenant, suite, caseId, key)
  }
  cacheAnswer(tenant: string, suite: string, entry: CacheEntry): Promise<void> {
    return this.cache.cacheAnswer(tenant, suite, entry)
  }
  cachedAnswersOf(tenant: string, suite: string, caseId: string): Promise<CacheEntry[]> {
    return this.cache.cachedAnswersOf(tenant, suite, caseId)
  }
  clearCache(tenant: string, suite?: string): Promise<number> {
    return this.cache.clearCache(tenant, suite)
  }
  forgetRunAnswers(tenant: string, suite: string, key: string): Promise<number> {
    return this.cache.forgetRunAnswers(tenant, suite, key)
  }

  toolRecording(tenant: string, suite: string, caseId: string, key: string): Promise<ToolRecording | undefined> {
    return this.tools.toolRecording(tenant, suite, caseId, key)
  }
  recordToolCall(tenant: string, suite: string, recording: ToolRecording): Promise<void> {
    return this.tools.recordToolCall(tenant, suite, recording)
  }
  toolRecordingsOf(tenant: string, suite: string, caseId: string): Promise<ToolRecording[]> {
    return this.tools.toolRecordingsOf(tenant, suite, caseId)
  }
  forgetRunRecordings(tenant: string, suite: string, key: string): Promise<number> {
    return this.tools.forgetRunRecordings(tenant, suite, key)
  }

  promote(request: PromotionRequest): Promise<PromotionResult> {
    return this.baselines.promote(request)
  }
  readRegister(tenant: string): Promise<RegisterEntry[]> {
    return this.baselines.readRegister(tenant)
  }

  /**
   * Outside the Store contract, for fixtures that plant a store's state (tests, benchmarks): a raw
   * baseline write and a raw register append, with no compare-and-swap and no lock. Digline itself
   * promotes only through promote().
   */
  writeBaseline(doc: BaselineDocument): Promise<StoredBaseline> {
    return this.baselines.writeBaseline(doc)
  }
  appendRegister(tenant: string, entry: RegisterEntry): Promise<void> {
    return this.baselines.appendRegister(tenant, entry)
  }

  get root(): string {
    return this.paths.root
  }

  async writeRun(doc: RunDocument): Promise<StoredRun> {
    const { head: valid, results } = checkRunToWrite(doc, `a run document of suite ${JSON.stringify((doc as { suite?: unknown } | undefined)?.suite)}`)
    const { tenant, suite } = valid
    assertDocumentHeaderWithinBound(valid)
    const key = keyFor(valid.created_at, valid.config_hash)
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    const dir = this.paths.suiteRunsDir(tenant, suite)
    const file = this.paths.runFile(tenant, suite, key)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, this.paths.gitignoreFile()))
    const removed = [{ tenant, suite, key }, ...(valid.rejudged_from === undefined ? [] : [{ tenant, suite: valid.rejudged_from_suite ?? suite, key: valid.rejudged_from }])]
    await this.assertNoneRemoved(removed)
    const created = await ensureDirectory(this.fs, dir)
    let gitignoreCreated = false
    try {
      gitignoreCreated = await ensureGitignore(this.fs, this.paths)
      await writeFileAtomic(this.fs, file, runLines(valid, results))
    } catch (error) {
      if (gitignoreCreated) await this.fs.unlink(this.paths.gitignoreFile()).catch(() => undefined)
      await removeCreatedDirectories(this.fs, created)
      throw error
    }
    // A delete may have recorded the key while this write was under way: published, then taken back.
    await this.assertNoneRemoved(removed, async () => {
      await this.fs.unlink(file).catch(() => undefined)
      await fsyncDirectory(this.fs, dir).catch(() => undefined)
    })
    return { tenant, suite, key, location: file }
  }

  /** Refuses when the run, or the run a replay re-judged, was removed; `retract` first undoes what was written. */
  private async assertNoneRemoved(refs: readonly RunRef[], retract?: () => Promise<void>): Promise<void> {
    for (const ref of refs) {
      if (!isSafeSegment(ref.suite) || !isSafeSegment(ref.key)) continue
      const notice = await this.records.find(ref)
      if (notice === undefined) continue
      await retract?.()
      throw runRemovedError(ref, notice, ref === refs[0] ? 'write' : `file a replay of`)
    }
  }

  async readRun(tenant: string, suite: string, key: string): Promise<RunDocument> {
    const file = this.paths.runFile(tenant, suite, key)
    await this.reading(file, () => this.paths.assertInsideStore(this.fs, file))
    let bytes: Buffer
    try {
      bytes = await this.fs.readFile(file)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') {
        const notice = await this.records.find({ tenant, suite, key })
        if (notice !== undefined) throw runRemovedError({ tenant, suite, key }, notice, 'read')
        throw new RunNotFoundError(`refused to read run ${key} of suite ${suite} (tenant ${tenant}): there is no run under that key`, `digline list --suite ${suite}`, ['key'])
      }
      throw this.readFailure(file, error)
    }
    const doc = validateDocument(parseJsonText(bytes.toString('utf8'), file), file)
    assertFiledUnder(doc, { tenant, suite, fileKey: key, file })
    return doc
  }

  async listRuns(tenant: string, suite: string): Promise<RunListing> {
    // The suite's directory is held open for the listing: each file is reached from it, not from the root (ADR 0088).
    const listed = await holdingDirectory(this.fs, this.paths.suiteRunsDir(tenant, suite), async (fs) => {
      const entries = await this.runFiles(tenant, suite, fs)
      return mapLimited(entries, LISTING_CONCURRENCY, (entry) => this.listEntry(tenant, suite, entry, fs))
    })
    const readable = listed.filter((run) => run.refusal === undefined).sort((a, b) => compareText(a.key, b.key))
    const refused = listed.filter((run) => run.refusal !== undefined)
    return { tenant, suite, runs: [...readable, ...refused] }
  }

  async scanRuns(tenant: string, suite: string): Promise<RunScan> {
    const entries = await this.runFiles(tenant, suite)
    const scanned = await mapLimited(entries, LISTING_CONCURRENCY, async (entry) => {
      try {
        await this.assertRegularFile(entry.file)
        const text = (await this.readingFile(entry.file)).toString('utf8')
        const doc = validateDocument(parseJsonText(text, entry.file), entry.file)
        assertFiledUnder(doc, { tenant, suite, fileKey: entry.fileKey, file: entry.file })
        return { doc }
      } catch (error) {
        return { refused: { key: isSafeSegment(entry.fileKey) ? entry.fileKey : undefined, refusal: this.refusalData(entry.file, error) } }
      }
    })
    const runs = scanned.flatMap((s) => (s.doc === undefined ? [] : [s.doc])).sort((a, b) => compareText(ownKeyOf(a), ownKeyOf(b)))
    const refused = scanned.flatMap((s) => (s.refused === undefined ? [] : [s.refused]))
    return { tenant, suite, runs, refused }
  }

  async latestKey(tenant: string, suite: string): Promise<string | undefined> {
    const { runs } = await this.listRuns(tenant, suite)
    return runs.filter((run) => run.refusal === undefined).at(-1)?.key
  }

  private async listEntry(tenant: string, suite: string, entry: RunFileEntry, fs: FsLayer): Promise<ListedRun> {
    let ownKey: string | undefined
    try {
      await this.assertRegularFile(entry.file, fs)
      const { header, aggregates } = await readRunHeader(fs, entry.file)
      ownKey = ownKeyOf(header)
      assertFiledUnder(header, { tenant, suite, fileKey: entry.fileKey, file: entry.file })
      return aggregates === undefined ? { key: entry.fileKey, header } : { key: entry.fileKey, header, aggregates }
    } catch (error) {
      return { key: ownKey, refusal: this.refusalData(entry.file, error) }
    }
  }

  /** The run files of a suite in file-name order: `*.json` not starting with '.', so never a temp file or `.pending/`. */
  private async runFiles(tenant: string, suite: string, fs: FsLayer = this.fs): Promise<RunFileEntry[]> {
    const dir = this.paths.suiteRunsDir(tenant, suite)
    await this.reading(dir, () => this.paths.assertInsideStore(fs, dir))
    let names: string[]
    try {
      names = await fs.readdir(dir)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return []
      throw unreadableRun(dir, `its runs directory cannot be listed (${errnoOf(error) ?? String(error)})`)
    }
    return names
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort(compareText)
      .map((name) => ({ file: join(dir, name), fileKey: name.slice(0, -'.json'.length) }))
  }

  /** Listing never follows a symlink or opens a directory that happens to be named `*.json`. */
  private async assertRegularFile(file: string, fs: FsLayer = this.fs): Promise<void> {
    const fileKey = basename(file).slice(0, -'.json'.length)
    if (!isSafeSegment(fileKey)) {
      throw new PathRefusedError(`refused the run file ${file}: its name is not a safe key`, `rename or remove ${file}`)
    }
    const stats = await this.reading(file, () => fs.lstat(file))
    if (stats.isSymbolicLink()) {
      throw new PathRefusedError(`refused the run file ${file}: it is a symlink, and the store never follows a path out of itself`, `remove the symlink ${file}`)
    }
    if (!stats.isFile()) throw unreadableRun(file, 'it is not a regular file')
  }

  private async reading<T>(path: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step()
    } catch (error) {
      if (isDiglineError(error)) throw error
      throw this.readFailure(path, error)
    }
  }

  private async readingFile(file: string): Promise<Buffer> {
    return this.reading(file, () => this.fs.readFile(file))
  }

  private readFailure(path: string, error: unknown) {
    const errno = errnoOf(error)
    if (errno === 'ELOOP') return new PathRefusedError(`refused ${path}: it is a symlink`, `remove the symlink ${path}`)
    return unreadableRun(path, `it cannot be read (${errno ?? (error instanceof Error ? error.message : String(error))})`)
  }

  private refusalData(file: string, error: unknown): DiglineErrorData {
    if (isDiglineError(error)) return error.toData()
    return this.readFailure(file, error).toData()
  }
}

function compareText(a: string | undefined, b: string | undefined): number {
  const left = a ?? ''
  const right = b ?? ''
  return left < right ? -1 : left > right ? 1 : 0
}
