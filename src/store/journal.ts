// The journal part of the Store contract: one leg file per attempt at a run, one record
// per finished case, so a killed run can be finished without paying twice for what it judged.
import type { CaseResult, ErrorCause, Observed } from '../document/schema.js'
import type { CaseProgress } from '../document/case-progress.js'
import type { DiglineErrorData } from '../errors/base.js'

/** 2: the writer's lease replaces host and pid; every record is bound to its run; line 2 declares the cases. */
export const JOURNAL_VERSION = 2

/**
 * Who holds a leg: the process that writes it, named so a recycled pid is not mistaken for it. `boot`
 * is /proc/sys/kernel/random/boot_id and `start_time` is field 22 of /proc/<pid>/stat (clock ticks
 * after boot); both are null where the system does not say (then host and pid alone decide).
 */
export interface Lease {
  host: string
  boot: string | null
  pid: number
  start_time: number | null
}

/** A leg's lease as the store judges it now. */
export interface LegLease {
  leg: number
  lease: Lease
  /** When the leg was started (its header's started_at). */
  since: string
  /** The lease holds, as the store judges it: the process it names is alive and is the same process (the team store: and its heartbeat is fresh, docs/adr/0041). */
  live: boolean
}

/** Line 2 of every leg: the cases the run declares, each by a digest of its declaration, and the samples per case. */
export interface DeclaredCases {
  samples: number
  /** With adaptive samples (ADR 0360): the fewest a judged case takes, `samples` the most. */
  min_samples?: number
  /** case id → 12 hex of sha256 over the canonical JSON of that declared case, in the suite's order. */
  digests: Record<string, string>
}

/** Line 1 of every leg: the facts a resumed run must share with the run it finishes. */
export interface JournalHeader {
  journal_version: number
  leg: number
  created_at: string
  started_at: string
  digline_version: string
  tenant: string
  environment: string
  suite: string
  config_hash: string
  cases_digest: string
  artifacts: Record<string, string>
  target_config: Record<string, unknown>
  judge_config: { scorers: { name: string; config: Record<string, unknown>; pass_at: number }[]; simulated_user?: Record<string, unknown> }
  record_responses: boolean
  git_commit: string | null
  lease: Lease
  /** `i/N` when the leg is written by shard i of a run split across N machines; absent otherwise. */
  shard?: string
  /** Dataset files the cases were read from, path → sha256; absent when the cases are inline. */
  datasets?: Record<string, string>
  /** The tags of a slice run (`digline run --tag T`); absent for a run of the whole suite. */
  slice?: { tags: string[]; suite_cases: number }
  /** The declared suite and variant name of a variant's run (ADR 0300), and its place among the declared variants (ADR 0415); absent for a suite of its own. */
  variant?: { suite: string; name: string; position?: number }
}

/** What a leg is opened with: its header (leg apart) and the cases it declares (line 2). */
export type JournalOpening = Omit<JournalHeader, 'leg'> & { declared: DeclaredCases }

/**
 * The header fields a resume checks against the suite as it is now, in the order it checks them:
 * the declared configs before config_hash, which covers the scorers too, so the message names the
 * most specific field that moved.
 */
export const RESUME_CHECKED_FIELDS = [
  'journal_version',
  'digline_version',
  'tenant',
  'environment',
  'suite',
  'slice',
  'variant',
  'datasets',
  'cases_digest',
  'artifacts',
  'target_config',
  'judge_config',
  'record_responses',
  'config_hash',
  'git_commit',
] as const satisfies readonly (keyof JournalHeader)[]

export interface Journal {
  readonly key: string
  readonly leg: number
  /**
   * One record (plus an `observed` record first when the identities changed): one write, fsynced.
   * `alone`: no other case of the run is being asked, so no other record could share this one's
   * write (a file leg then waits for its fsync on the calling thread, ADR 0563).
   */
  append(progress: CaseProgress, alone?: boolean): Promise<void>
  /**
   * The run document is written: remove every leg of this key and fsync the directory. Refused
   * (RunRemovedError) when a delete removed the run meanwhile. The only other remover of legs is
   * deleteRun, for a run a person deleted.
   */
  complete(): Promise<void>
  /** Close the leg's file without removing anything (the run stopped). */
  close(): Promise<void>
}

export interface Pending {
  tenant: string
  suite: string
  key: string
  /** Leg 1's header, the run's birth certificate; undefined when it cannot be read. */
  header: JournalHeader | undefined
  /** Why the journal cannot be resumed (corrupt, unknown version), or undefined. */
  refusal: DiglineErrorData | undefined
  /** Leg numbers on disk, ascending. */
  legs: number[]
  /** The lease of each readable leg (from its header), in leg order, with whether it holds now. */
  leases: LegLease[]
  /** Line 2 of leg 1: the cases the run declared; undefined when the journal cannot be read. */
  declared: DeclaredCases | undefined
  /** Last record wins, across legs in order. */
  done: Map<string, CaseResult>
  /** Cases whose last record errored, and the layer that errored. */
  causes: Map<string, ErrorCause>
  /** The last observed identities recorded. */
  observed: Observed
  /** A readable document of this same run (tenant, suite, key) exists: the journal outlived its run. */
  finished: boolean
}

/**
 * A journal as a survey of its cases reads it (a merge's checks, ADR 0562): Pending's header, legs,
 * leases and declaration, and the ids of its journaled cases instead of their results.
 */
export type PendingCases = Omit<Pending, 'done' | 'causes' | 'observed'> & { caseIds: ReadonlySet<string> }

export interface SupportsJournal {
  /** Creates the next leg with O_CREAT|O_EXCL; a leg that exists already is refused by name. */
  openJournal(opening: JournalOpening, leg: number): Promise<Journal>
  /** Every journal of a suite, newest key last; unreadable ones are named, never thrown. */
  pending(tenant: string, suite: string): Promise<Pending[]>
  /** pending() for a survey: the same journals, refusals and checks of every line's binding and checksum, each case record read for its id alone. */
  pendingCases(tenant: string, suite: string): Promise<PendingCases[]>
  /**
   * Removes the legs of a run whose document exists (a journal that outlived its run), and refuses
   * any other: such a journal holds the only copy of its judged cases. A person's delete of a run
   * removes its legs through Store.deleteRun, never through this.
   */
  dropPending(tenant: string, suite: string, key: string): Promise<void>
  /** The suites of a tenant that have a runs directory. */
  listSuites(tenant: string): Promise<string[]>
}
