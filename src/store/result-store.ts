// The store protocol. FileResultStore is the embedded default; another backend implements the same
// interface and passes the same contract suite (test/store/contract.ts).
import type { Aggregates, RunDocument, RunHeader } from '../document/schema.js'
import type { DiglineErrorData } from '../errors.js'
import type { Removal } from './removal.js'

export interface StoredRun {
  tenant: string
  suite: string
  key: string
  /** Where the document is, for messages; a store that is not a directory may return a URI. */
  location: string
}

/** One entry of a listing: the header of a readable run, or the refusal of one that is not. */
export type ListedRun =
  | { key: string; file: string; header: RunHeader; aggregates?: Aggregates; refusal?: undefined }
  | { key: string | undefined; file: string; header?: undefined; refusal: DiglineErrorData }

export interface RunListing {
  tenant: string
  suite: string
  /** Readable runs in key order (oldest first), then the refused files in file-name order. */
  runs: ListedRun[]
}

export interface RunScan {
  tenant: string
  suite: string
  runs: RunDocument[]
  refused: { file: string; refusal: DiglineErrorData }[]
}

export interface ResultStore {
  /** Writes the document atomically under its key. Refuses unsafe names before any I/O. */
  writeRun(doc: RunDocument): Promise<StoredRun>
  /** The whole document under KEY; refuses a misfiled, mismatched, unknown-schema or unreadable one. */
  readRun(tenant: string, suite: string, key: string): Promise<RunDocument>
  /** Headers only, each read from a bounded prefix of its file; results are never parsed. */
  listRuns(tenant: string, suite: string): Promise<RunListing>
  /** Every readable document of a suite, whole. */
  scanRuns(tenant: string, suite: string): Promise<RunScan>
  /** The newest readable run's key, or undefined when there is none. */
  latestKey(tenant: string, suite: string): Promise<string | undefined>
  /**
   * Removes the run under KEY (its document and journal legs) and every replay chained to it through
   * `rejudged_from`, in every suite of the tenant, leaves first (docs/delete.md). Every refusal comes
   * before the first change; the run under the suite's baseline is refused (PromotedRunError).
   * Nothing to remove is not an error: `nothing` is true. Interrupted, calling it again finishes it.
   */
  deleteRun(tenant: string, suite: string, key: string): Promise<Removal>
}
