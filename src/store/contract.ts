// The Store: the one contract every backend implements whole (SPEC §10). Every part is required, so
// no caller sniffs for a capability: runs, the journal, baselines with the register, removal
// records, the leases of a journal's writers (carried by Pending, judged by the store), and the
// suite lifecycle (retired suites). Nothing it returns is file-shaped: runs are named by key, never by a path;
// a `location` is a sentence-fragment for messages (a path for the file store), never an address.
// The contract suite (test/store/contract/) holds every backend to it; open-store.ts opens one.
import type { BaselineDocument, RegisterEntry } from '../document/baseline.js'
import type { Aggregates, RunDocument, RunHeader } from '../document/schema.js'
import type { DiglineErrorData } from '../errors/base.js'
import type { Journal, JournalHeader, Pending, PendingCases } from './journal.js'
import type { PendingFollower } from './pending-follower.js'
import type { Removal, RemovalNotice } from './removal.js'
import type { CacheEntry } from '../suite/cache-key.js'
import type { ReviewRecord } from './review.js'
import type { ToolRecording } from '../suite/tool-replay.js'

export interface StoredRun {
  tenant: string
  suite: string
  key: string
  /** Where a person finds the document, for messages only. */
  location: string
}

/** One entry of a listing: the header of a readable run, or the refusal of one that is not. */
export type ListedRun =
  { key: string; header: RunHeader; aggregates?: Aggregates; refusal?: undefined } | { key: string | undefined; header?: undefined; refusal: DiglineErrorData }

export interface RunListing {
  tenant: string
  suite: string
  /** Readable runs in key order (oldest first), then the refused ones (their refusals say where). */
  runs: ListedRun[]
}

export interface RunScan {
  tenant: string
  suite: string
  runs: RunDocument[]
  /** Documents that could not be read whole: the key they claim when it could be read, and why. */
  refused: { key: string | undefined; refusal: DiglineErrorData }[]
}

/** A promotion as the store performs it: one compare-and-swap of the suite's baseline, plus its register line. */
export interface PromotionRequest {
  tenant: string
  suite: string
  /** The baseline key the promoter saw (null: no baseline). The swap lands only if it is still the current one. */
  expected: string | null
  /** The new baseline; its `promoted_from` is the promoted run's key. */
  baseline: BaselineDocument
  /** The register line of this promotion (its `replaced` is `expected`). */
  entry: RegisterEntry
}

export interface PromotionResult {
  /**
   * promoted: the baseline was swapped and the register line appended. already: the key was the
   * baseline and the register's last line of the suite says so; nothing was written. completed: the
   * key was the baseline but an interrupted promotion never appended its line; it was appended now
   * (with the baseline's promoted_at).
   */
  outcome: 'promoted' | 'already' | 'completed'
  /** The register line appended, or undefined when nothing was appended. */
  entry: RegisterEntry | undefined
  /** For messages: where a person finds the baseline and the register. */
  baselineLocation: string
  registerLocation: string
  /** Whether the baseline and the register are files a person commits to git (the file store), or rows the store already shares (the team store). */
  committedByGit: boolean
}

export interface RunsPart {
  /**
   * Files the document under its key. Refuses unsafe names before any I/O (PathRefusedError), a
   * document that is not one (UnreadableRunError, naming the field), and a removed key or a replay
   * of one (RunRemovedError) — also when the removal lands while the write is under way.
   */
  writeRun(doc: RunDocument): Promise<StoredRun>
  /** The whole document, byte-for-byte what was written; refuses a missing, removed, misfiled, mismatched, unknown-schema or unreadable one. */
  readRun(tenant: string, suite: string, key: string): Promise<RunDocument>
  /** Headers and aggregates only; results are never read. An unreadable run is listed with its refusal. */
  listRuns(tenant: string, suite: string): Promise<RunListing>
  /** Every readable document of a suite, whole, in key order; the others with their refusals. */
  scanRuns(tenant: string, suite: string): Promise<RunScan>
  /** The newest readable run's key, or undefined when there is none. */
  latestKey(tenant: string, suite: string): Promise<string | undefined>
  /**
   * Removes the run under KEY (its document and journal) and every replay chained to it, in every
   * suite of the tenant, leaves first, after writing a removal record for each (docs/delete.md);
   * then the cached answers those runs asked for (forgetRunAnswers) and the tool calls they recorded
   * (forgetRunRecordings), also when nothing else was left.
   * Every refusal comes before the first change: the run under a baseline (PromotedRunError), a run
   * whose journal has a live writer (LiveRunError). Repeatable: called again it finishes the job, and
   * says when the key was first removed.
   */
  deleteRun(tenant: string, suite: string, key: string): Promise<Removal>
}

export interface JournalPart {
  /** Opens leg `leg` of a run; an existing leg is refused by name, and so is a removed key (RunRemovedError). */
  openJournal(header: Omit<JournalHeader, 'leg'>, leg: number): Promise<Journal>
  /** Every journal of a suite, with its writers' leases; unreadable ones are named, never thrown. */
  pending(tenant: string, suite: string): Promise<Pending[]>
  /** pending() for a survey of which cases are journaled: the same journals and refusals, each case record read for its id alone (ADR 0562). */
  pendingCases(tenant: string, suite: string): Promise<PendingCases[]>
  /**
   * For a reader that asks again and again (the viewer): the suite's journals as pending() gives
   * them, each poll reading only what was appended since the last (docs/adr/0396). Optional: a
   * backend without it is read whole with pending() on every poll.
   */
  followPending?(tenant: string, suite: string): PendingFollower
  /** Drops the journal of a run whose document is filed; refuses any other (it holds the only copy of its cases). */
  dropPending(tenant: string, suite: string, key: string): Promise<void>
  /** The suites of a tenant that hold runs or journals. */
  listSuites(tenant: string): Promise<string[]>
}

export interface BaselinesPart {
  /**
   * The suite's baseline, or undefined when none was promoted. Refuses one that cannot be read
   * (UnreadableBaselineError, UnknownSchemaVersionError) or belongs elsewhere (TenantMismatchError,
   * SuiteMismatchError).
   */
  readBaseline(tenant: string, suite: string): Promise<BaselineDocument | undefined>
  /**
   * The compare-and-swap (SPEC §7): when the suite's current baseline key is `expected`, the new
   * baseline replaces it and the register line is appended, as one step that concurrent promotions
   * of the same tenant cannot interleave. Refused (64, naming the current baseline, nothing changed):
   * a current baseline other than `expected` (ReplacingRequiredError when `expected` is null,
   * ReplacingMismatchError otherwise), a removed key (RunRemovedError). A promotion that fails
   * leaves the baseline and the register as they were. Same key again: `already` / `completed`.
   */
  promote(request: PromotionRequest): Promise<PromotionResult>
  /**
   * Every promotion of the tenant, oldest first. A torn last line (a crash mid-append) is recovered:
   * it is cut off, and the store says so; any other line that is not an entry is refused by number
   * (UnreadableRegisterError).
   */
  readRegister(tenant: string): Promise<RegisterEntry[]>
}

export interface SuiteRetirement {
  suite: string
  /** When the suite was first retired (ISO-8601 UTC). */
  retired_at: string
}

/**
 * The suite lifecycle (SPEC §10, seed 003): a suite is a definition and is soft-deleted. Retiring
 * keeps its runs, baselines, register lines and removal records; no delete touches a retirement.
 */
export interface SuitesPart {
  /** Retires the suite (idempotent: retiring it again returns the first retirement). */
  retireSuite(tenant: string, suite: string): Promise<SuiteRetirement>
  /** The suite's retirement, or undefined when it is not retired. */
  retirementOf(tenant: string, suite: string): Promise<SuiteRetirement | undefined>
  /** The retired suites of a tenant, by name. */
  retiredSuites(tenant: string): Promise<SuiteRetirement[]>
}

export interface RemovalsPart {
  /** The removal record of a key, or undefined when it was never removed. */
  removalOf(tenant: string, suite: string, key: string): Promise<RemovalNotice | undefined>
}

/**
 * The response cache (SPEC §14): target answers by key, per tenant and suite. It is disposable: no
 * run, baseline, register line or removal record depends on it, and an entry that cannot be read is
 * a miss (and is replaced by the next answer), never a refusal. Each entry names the run that asked
 * for its answer, and deleteRun removes the entries of every run it removes (SPEC §7).
 * Keys are 64 lowercase hex (src/suite/cache-key.ts); tenant, suite and case ids are safe segments.
 */
export interface CachePart {
  /** The entry filed under `key` for that case, or undefined. */
  cachedAnswer(tenant: string, suite: string, caseId: string, key: string): Promise<CacheEntry | undefined>
  /** Files an entry under its key (replacing one already there). */
  cacheAnswer(tenant: string, suite: string, entry: CacheEntry): Promise<void>
  /** Every readable entry of one case, newest first (by cached_at): what explains a miss. */
  cachedAnswersOf(tenant: string, suite: string, caseId: string): Promise<CacheEntry[]>
  /** Drops the cache of one suite, or of every suite of the tenant; returns how many entries went. */
  clearCache(tenant: string, suite?: string): Promise<number>
  /** Drops the entries run KEY of the suite asked for (deleteRun calls it; so does a delete for a cache kept beside the store); returns how many went. */
  forgetRunAnswers(tenant: string, suite: string, key: string): Promise<number>
}

/** Where an appended review record is kept, for messages. */
export interface StoredReview {
  review_id: string
  /** Whether this call added it (false: the same record was already there). */
  appended: boolean
  location: string
}

/**
 * Review records (SPEC §17, docs/adr/0341): people's labels of cases of filed runs, append-only.
 * There is no update and no delete: the only way a record goes is with its run, when deleteRun
 * removes the run (every label of a removed run goes with it, and none is listed or appended after).
 */
export interface ReviewsPart {
  /**
   * Appends the record (checked with checkReview: PathRefusedError, InvalidReviewError). Refuses a
   * run that is not filed under its key (RunNotFoundError) and a removed one (RunRemovedError), also
   * when the removal lands while the append is under way. The same record again adds nothing.
   */
  appendReview(review: ReviewRecord): Promise<StoredReview>
  /**
   * The reviews of a suite, or of one run of it, oldest first (created_at, then review_id). One
   * that cannot be read back is refused by name (UnreadableReviewError); a removed run has none.
   */
  listReviews(tenant: string, suite: string, key?: string): Promise<ReviewRecord[]>
}

/**
 * Tool replay's recordings (SPEC §16, docs/adr/0320): the outcome of an agent's tool calls, per
 * tenant, suite and case, by key (src/suite/tool-replay.ts). Never part of a run, a baseline or a
 * register line; each names the run that recorded it, and deleteRun removes the recordings of every
 * run it removes. A recording that cannot be read is not served (and is replaced by the next one).
 */
export interface ToolRecordingsPart {
  /** The recording filed under `key` for that case, or undefined. */
  toolRecording(tenant: string, suite: string, caseId: string, key: string): Promise<ToolRecording | undefined>
  /** Files a recording under its key (replacing one already there). */
  recordToolCall(tenant: string, suite: string, recording: ToolRecording): Promise<void>
  /** Every readable recording of one case, newest first (by recorded_at, then key): what explains a call not served. */
  toolRecordingsOf(tenant: string, suite: string, caseId: string): Promise<ToolRecording[]>
  /** Drops the recordings run KEY of the suite made (deleteRun calls it); returns how many went. */
  forgetRunRecordings(tenant: string, suite: string, key: string): Promise<number>
}
/**
 * The store's lifecycle (ADR 0160): a front end opens one store for as long as it lives and closes
 * it once when it ends. close() releases what the backend holds (the team store's connection pool;
 * the file store holds nothing between operations) and is idempotent; after it, every other
 * operation rejects with an InternalError. A journal opened before close() is closed first.
 */
export interface LifecyclePart {
  close(): Promise<void>
}

/** The store: every part required. */
export interface Store extends RunsPart, JournalPart, BaselinesPart, RemovalsPart, SuitesPart, CachePart, ReviewsPart, ToolRecordingsPart, LifecyclePart {}
