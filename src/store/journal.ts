// The journal protocol (optional beside ResultStore): one leg file per attempt at a run, one record
// per finished case, so a killed run can be finished without paying twice for what it judged.
import type { CaseResult, ErrorCause, Observed } from '../document/schema.js'
import type { CaseProgress } from '../document/case-progress.js'
import type { DiglineErrorData } from '../errors.js'

export const JOURNAL_VERSION = 1

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
  judge_config: { scorers: { name: string; config: Record<string, unknown>; pass_at: number }[] }
  record_responses: boolean
  git_commit: string | null
  host: string
  pid: number
}

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
  /** One record (plus an `observed` record first when the identities changed): one write, fsynced. */
  append(progress: CaseProgress): Promise<void>
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
  /** The process that wrote each readable leg (from its header), in leg order. */
  writers: { leg: number; host: string; pid: number }[]
  /** Last record wins, across legs in order. */
  done: Map<string, CaseResult>
  /** Cases whose last record errored, and the layer that errored. */
  causes: Map<string, ErrorCause>
  /** The last observed identities recorded. */
  observed: Observed
  /** The run document already exists: the journal outlived its run. */
  finished: boolean
}

export interface SupportsJournal {
  /** Creates the next leg with O_CREAT|O_EXCL; a leg that exists already is refused by name. */
  openJournal(header: Omit<JournalHeader, 'leg'>, leg: number): Promise<Journal>
  /** Every journal of a suite, newest key last; unreadable ones are named, never thrown. */
  pending(tenant: string, suite: string): Promise<Pending[]>
  /**
   * Removes the legs of a run whose document exists (a journal that outlived its run), and refuses
   * any other: such a journal holds the only copy of its judged cases. A person's delete of a run
   * removes its legs through ResultStore.deleteRun, never through this.
   */
  dropPending(tenant: string, suite: string, key: string): Promise<void>
  /** The suites of a tenant that have a runs directory. */
  listSuites(tenant: string): Promise<string[]>
}

export function supportsJournal(store: unknown): store is SupportsJournal {
  return typeof store === 'object' && store !== null && 'openJournal' in store && 'pending' in store
}
