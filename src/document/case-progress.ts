import type { CaseResult, ErrorCause, Observed } from './schema.js'

/** What the driver hands the per-case hook, once per finished case, before that slot's next case. */
export interface CaseProgress {
  result: CaseResult
  /** The layer that produced the error, or null for a judged case. */
  cause: ErrorCause | null
  /** The observed identities as of this case (what the journal's `observed` records hold). */
  observed: Observed
  /** The case's position in the suite. */
  index: number
}

export type OnCase = (progress: CaseProgress) => void | Promise<void>

/** Keeps a finished case (the journal); `alone` when no other case of the run is being asked meanwhile. */
export type KeepCase = (progress: CaseProgress, alone: boolean) => Promise<void>
