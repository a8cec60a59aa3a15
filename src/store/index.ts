// `digline/store`: the store library. FileResultStore is the embedded default; another backend
// implements ResultStore and passes the same contract suite.
export { FileResultStore, type FileResultStoreOptions } from './file-store.js'
export { STORE_GITIGNORE } from './gitignore.js'
export type { ListedRun, ResultStore, RunListing, RunScan, StoredRun } from './result-store.js'
export {
  REMOVAL_RECORD_VERSION,
  removalRecordSchema,
  supportsRemovalRecords,
  type Removal,
  type RemovalNotice,
  type RemovalRecord,
  type RemovedRun,
  type RunRef,
  type SupportsRemovalRecords,
} from './removal.js'
export { nodeFsLayer, type FilePrefix, type FileHandle, type FsLayer } from './fs-layer.js'
export { readRunHeader, HEADER_PREFIX_BYTES, HEADER_PREFIX_LIMIT_BYTES, type RunHeaderRead } from './header-reader.js'
export {
  DiglineError,
  DiglineFailure,
  DiglineRefusal,
  DirectoryUnreadableError,
  FAILURES,
  INTERNAL_ERRORS,
  InternalError,
  LiveRunError,
  MisfiledRunError,
  PathRefusedError,
  PromotedRunError,
  REFUSALS,
  RunNotFoundError,
  RunRemovedError,
  StoreWriteError,
  SuiteMismatchError,
  TenantMismatchError,
  UnknownSchemaVersionError,
  UnreadableRunError,
  diglineErrorKind,
  isDiglineError,
  type DiglineErrorData,
  type ExitCode,
} from '../errors.js'
export {
  HEADER_KEYS,
  SCHEMA_VERSION,
  aggregatesSchema,
  caseResultSchema,
  runDocumentSchema,
  runHeaderSchema,
  type Aggregates,
  type CaseResult,
  type Interval,
  type JudgeConfig,
  type Observed,
  type Rules,
  type RunDocument,
  type RunHeader,
  type SampleResult,
  type ScorerScore,
} from '../document/schema.js'
export { serializeRun } from '../document/serialize.js'
export { keyFor } from '../suite/keys.js'
export { isSafeSegment } from '../suite/safe-segment.js'
export { supportsBaselines, type StoredBaseline, type SupportsBaselines } from './baselines.js'
export { baselineDocumentSchema, registerEntrySchema, type BaselineDocument, type RegisterEntry } from '../document/baseline.js'
export { supportsJournal, JOURNAL_VERSION, type Journal, type JournalHeader, type Pending, type SupportsJournal } from './journal.js'
