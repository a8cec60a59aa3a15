// `digline/store`: the store library. openStore opens the configured backend; FileResultStore is the
// embedded default; every backend implements Store and passes the same contract suite.
export { FileResultStore, type FileResultStoreOptions } from './file/store.js'
export { PostgresStore, type PostgresStoreOptions } from './postgres/store.js'
export { DEFAULT_STORE, assertStoreAvailable, describeStore, openStore, storeLocator, storeTarget, type OpenStoreOptions, type StoreTarget } from './open-store.js'
export { STORE_GITIGNORE } from './file/gitignore.js'
export type {
  BaselinesPart,
  CachePart,
  JournalPart,
  ListedRun,
  PromotionRequest,
  PromotionResult,
  RemovalsPart,
  RunListing,
  RunScan,
  ReviewsPart,
  RunsPart,
  Store,
  StoredReview,
  StoredRun,
} from './contract.js'
export { REVIEW_RECORD_VERSION, checkReview, newReview, reviewIdOf, reviewRecordSchema, type ReviewFields, type ReviewRecord } from './review.js'
export { answerDigestOf } from '../document/answer-digest.js'
export { cacheKeyOf, cacheKeyParts, type CacheEntry, type CacheKeyParts, type CachedTargetAnswer } from '../suite/cache-key.js'
export { REMOVAL_RECORD_VERSION, removalRecordSchema, type Removal, type RemovalNotice, type RemovalRecord, type RemovedRun, type RunRef } from './removal.js'
export { nodeFsLayer, type FilePrefix, type FileHandle, type FsLayer } from './file/fs-layer.js'
export { readRunHeader, HEADER_PREFIX_BYTES, type RunHeaderRead } from './file/header-reader.js'
export { HEADER_PREFIX_LIMIT_BYTES, JOURNAL_HEADER_LIMIT_BYTES } from './header-bounds.js'
export { DiglineError, DiglineFailure, DiglineRefusal, InternalError, isDiglineError, type DiglineErrorData, type ExitCode } from '../errors/base.js'
export { DirectoryUnreadableError, PromotionInProgressError } from './file/errors.js'
export { FAILURES, INTERNAL_ERRORS, REFUSALS } from '../errors/catalogue.js'
export {
  InvalidReviewError,
  LiveRunError,
  MisfiledRunError,
  PromotedRunError,
  ReplacingMismatchError,
  ReplacingRequiredError,
  RunNotFoundError,
  RunRemovedError,
  StoreWriteError,
  SuiteMismatchError,
  TenantMismatchError,
  UnknownSchemaVersionError,
  UnreadableReviewError,
  UnreadableRunError,
} from './errors.js'
export { PathRefusedError } from '../suite/errors.js'
export { TeamStoreSchemaTooNewError, TeamStoreUnreachableError } from './postgres/errors.js'
export { diglineErrorKind } from '../errors/recognise.js'
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
export type { StoredBaseline } from './baselines.js'
export { baselineDocumentSchema, registerEntrySchema, type BaselineDocument, type RegisterEntry } from '../document/baseline.js'
export { JOURNAL_VERSION, type Journal, type JournalHeader, type Pending } from './journal.js'
export type { JournalReadCount, PendingFollower } from './pending-follower.js'
