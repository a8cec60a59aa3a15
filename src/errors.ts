// Every error digline raises on purpose. Refusals (exit 64) say what was refused and the command to
// run next, and are raised before anything on disk changes. Failures (exit 2) say why a run could
// not be judged. An internal error (exit 2) is a defect of digline itself. This file imports
// nothing, so every layer can use it; src/exit-codes.ts turns what it recognises into exit codes.
//
// digline's errors are recognised by what they are, never by their name alone: an own `digline`
// brand (a data property, so it survives Vitest's worker → main serialization) AND a name that is an
// own key of one of the tables below. A user's own `class UsageError extends Error` is neither.

export type ExitCode = 0 | 1 | 2 | 64

export interface DiglineErrorData {
  /** The class name, stable across releases; reporters and tests match on it. */
  readonly name: string
  readonly exitCode: ExitCode
  readonly message: string
  /** The command or step that moves the user forward. */
  readonly next: string
  /** Where in the input the problem is, as a path of keys (zod-style), when there is one. */
  readonly path: readonly (string | number)[]
  /** The brand: an own data property, so plain copies made across a process boundary keep it. */
  readonly digline: true
}

export abstract class DiglineError extends Error implements DiglineErrorData {
  abstract override readonly name: string
  abstract readonly exitCode: ExitCode
  readonly next: string
  readonly path: readonly (string | number)[]
  readonly digline = true

  constructor(what: string, next: string, path: readonly (string | number)[] = []) {
    super(`${what}\n  next: ${next}`)
    this.next = next
    this.path = path
  }

  toData(): DiglineErrorData {
    return { name: this.name, exitCode: this.exitCode, message: this.message, next: this.next, path: this.path, digline: true }
  }
}

/** Bad input or bad usage. Nothing on disk was changed. Exit 64. */
export abstract class DiglineRefusal extends DiglineError {
  readonly exitCode = 64 as const
}

/** The run could not be judged (a write failed, the disk is full). Exit 2. */
export abstract class DiglineFailure extends DiglineError {
  readonly exitCode = 2 as const
}

/** What every internal error asks of the user. */
export const REPORT_DEFECT = 'This is a defect of digline, not of your input: report it to the digline maintainers with this message and its stack.'

// ── refusals ────────────────────────────────────────────────────────────────────────────────────

export class PathRefusedError extends DiglineRefusal {
  readonly name = 'PathRefusedError'
}
export class InvalidSuiteError extends DiglineRefusal {
  readonly name = 'InvalidSuiteError'
}
export class InvalidOptionsError extends DiglineRefusal {
  readonly name = 'InvalidOptionsError'
}
export class UsageError extends DiglineRefusal {
  readonly name = 'UsageError'
}
export class ConfigNotFoundError extends DiglineRefusal {
  readonly name = 'ConfigNotFoundError'
}
export class RunNotFoundError extends DiglineRefusal {
  readonly name = 'RunNotFoundError'
}
export class MisfiledRunError extends DiglineRefusal {
  readonly name = 'MisfiledRunError'
}
export class TenantMismatchError extends DiglineRefusal {
  readonly name = 'TenantMismatchError'
}
export class SuiteMismatchError extends DiglineRefusal {
  readonly name = 'SuiteMismatchError'
}
export class UnknownSchemaVersionError extends DiglineRefusal {
  readonly name = 'UnknownSchemaVersionError'
}
export class UnreadableRunError extends DiglineRefusal {
  readonly name = 'UnreadableRunError'
}
export class CorruptJournalError extends DiglineRefusal {
  readonly name = 'CorruptJournalError'
}
export class UnknownJournalVersionError extends DiglineRefusal {
  readonly name = 'UnknownJournalVersionError'
}
export class JournalLegExistsError extends DiglineRefusal {
  readonly name = 'JournalLegExistsError'
}
export class ResumeMismatchError extends DiglineRefusal {
  readonly name = 'ResumeMismatchError'
}
export class NoPendingJournalError extends DiglineRefusal {
  readonly name = 'NoPendingJournalError'
}
export class LiveRunError extends DiglineRefusal {
  readonly name = 'LiveRunError'
}

export class UnreadableBaselineError extends DiglineRefusal {
  readonly name = 'UnreadableBaselineError'
}
export class UnreadableRegisterError extends DiglineRefusal {
  readonly name = 'UnreadableRegisterError'
}
export class SuiteNotDeclaredError extends DiglineRefusal {
  readonly name = 'SuiteNotDeclaredError'
}
export class ReplayNotPromotableError extends DiglineRefusal {
  readonly name = 'ReplayNotPromotableError'
}
export class ErroredRunNotPromotableError extends DiglineRefusal {
  readonly name = 'ErroredRunNotPromotableError'
}
export class ConfigHashMismatchError extends DiglineRefusal {
  readonly name = 'ConfigHashMismatchError'
}
export class ReplacingRequiredError extends DiglineRefusal {
  readonly name = 'ReplacingRequiredError'
}
export class ReplacingMismatchError extends DiglineRefusal {
  readonly name = 'ReplacingMismatchError'
}
export class PromotedRunError extends DiglineRefusal {
  readonly name = 'PromotedRunError'
}
export class RunRemovedError extends DiglineRefusal {
  readonly name = 'RunRemovedError'
}
export class DirectoryUnreadableError extends DiglineRefusal {
  readonly name = 'DirectoryUnreadableError'
}
export class NoRecordedAnswersError extends DiglineRefusal {
  readonly name = 'NoRecordedAnswersError'
}
export class ReplayMismatchError extends DiglineRefusal {
  readonly name = 'ReplayMismatchError'
}
export class InvalidModelOptionsError extends DiglineRefusal {
  readonly name = 'InvalidModelOptionsError'
}
export class MissingApiKeyError extends DiglineRefusal {
  readonly name = 'MissingApiKeyError'
}
export class MissingPeerDependencyError extends DiglineRefusal {
  readonly name = 'MissingPeerDependencyError'
}
export class PromotionInProgressError extends DiglineRefusal {
  readonly name = 'PromotionInProgressError'
}
export class ResumeFilteredError extends DiglineRefusal {
  readonly name = 'ResumeFilteredError'
}
export class ResumedSuiteNotDeclaredError extends DiglineRefusal {
  readonly name = 'ResumedSuiteNotDeclaredError'
}
export class PendingRunUnderKeyError extends DiglineRefusal {
  readonly name = 'PendingRunUnderKeyError'
}
export class BaselineRunOverwriteError extends DiglineRefusal {
  readonly name = 'BaselineRunOverwriteError'
}
export class RunExistsError extends DiglineRefusal {
  readonly name = 'RunExistsError'
}
export class DuplicateSuiteNameError extends DiglineRefusal {
  readonly name = 'DuplicateSuiteNameError'
}
export class HeaderTooLargeError extends DiglineRefusal {
  readonly name = 'HeaderTooLargeError'
}
export class RunPathOccupiedError extends DiglineRefusal {
  readonly name = 'RunPathOccupiedError'
}
// gates:
export class NoBaselineError extends DiglineRefusal {
  readonly name = 'NoBaselineError'
}
// lifecycle:
export class SuiteRetiredError extends DiglineRefusal {
  readonly name = 'SuiteRetiredError'
}
export class ImportConflictError extends DiglineRefusal {
  readonly name = 'ImportConflictError'
}
export class ExportFileOccupiedError extends DiglineRefusal {
  readonly name = 'ExportFileOccupiedError'
}
// shards:
export class InvalidShardError extends DiglineRefusal {
  readonly name = 'InvalidShardError'
}
export class ShardWithoutCreatedAtError extends DiglineRefusal {
  readonly name = 'ShardWithoutCreatedAtError'
}
export class ShardMissingError extends DiglineRefusal {
  readonly name = 'ShardMissingError'
}
export class ShardTwiceError extends DiglineRefusal {
  readonly name = 'ShardTwiceError'
}
export class ShardsDisagreeError extends DiglineRefusal {
  readonly name = 'ShardsDisagreeError'
}
export class CaseInTwoShardsError extends DiglineRefusal {
  readonly name = 'CaseInTwoShardsError'
}
// mcp:
export class BillNotAcknowledgedError extends DiglineRefusal {
  readonly name = 'BillNotAcknowledgedError'
}
export class LaunchNotPlannedError extends DiglineRefusal {
  readonly name = 'LaunchNotPlannedError'
}

// ── failures ────────────────────────────────────────────────────────────────────────────────────

export class StoreWriteError extends DiglineFailure {
  readonly name = 'StoreWriteError'
  constructor(
    what: string,
    next: string,
    readonly errno: string | undefined,
  ) {
    super(what, next)
  }
}
export class ObservedIdentityChangedError extends DiglineFailure {
  readonly name = 'ObservedIdentityChangedError'
}
export class RunStoppedError extends DiglineFailure {
  readonly name = 'RunStoppedError'
}

// ── internal errors ─────────────────────────────────────────────────────────────────────────────

/** A defect of digline itself (a document it built that its own schema rejects, say). Exit 2. */
export class InternalError extends DiglineError {
  readonly name = 'InternalError'
  readonly exitCode = 2 as const
  constructor(what: string, path: readonly (string | number)[] = []) {
    super(`digline internal error: ${what}`, REPORT_DEFECT, path)
  }
}

// budget:
export class OverBudgetError extends DiglineRefusal {
  readonly name = 'OverBudgetError'
}
export class CachedRunNotPromotableError extends DiglineRefusal {
  readonly name = 'CachedRunNotPromotableError'
}
export class BudgetReachedError extends DiglineFailure {
  readonly name = 'BudgetReachedError'
}
// pg:
/** The team store's database was migrated by a newer digline than this one. Exit 64. */
export class TeamStoreSchemaTooNewError extends DiglineRefusal {
  readonly name = 'TeamStoreSchemaTooNewError'
}
/** The team store's server could not be reached, or refused the connection. Exit 2. */
export class TeamStoreUnreachableError extends DiglineFailure {
  readonly name = 'TeamStoreUnreachableError'
}
// report:
export class ViewHostRefusedError extends DiglineRefusal {
  readonly name = 'ViewHostRefusedError'
}
export class ReportWriteError extends DiglineFailure {
  readonly name = 'ReportWriteError'
}
// lead:
export class ExportWriteError extends DiglineFailure {
  readonly name = 'ExportWriteError'
}

type RefusalClass = abstract new (...args: never[]) => DiglineRefusal
type FailureClass = abstract new (...args: never[]) => DiglineFailure
type InternalClass = abstract new (...args: never[]) => InternalError

export interface ErrorEntry<C> {
  readonly error: C
  /** When it is raised, in one sentence (the generated docs/refusals.md quotes it). */
  readonly when: string
  /** What to do next, in general terms; each instance names the exact command. */
  readonly next: string
}

/** Every refusal digline can raise. A test holds it complete against the classes exported here. */
export const REFUSALS = {
  PathRefusedError: {
    error: PathRefusedError,
    when: 'A tenant, suite or key is not one safe path segment, or a path resolves outside the store (symlinks included).',
    next: 'Use a name matching [A-Za-z0-9][A-Za-z0-9._-]* (at most 128 characters) and remove the symlink.',
  },
  InvalidSuiteError: {
    error: InvalidSuiteError,
    when: 'An evalSuite definition is invalid: an unsafe name, samples < 1, minAgreement outside 0..1, duplicate case ids, a bad scorer or target.',
    next: 'Fix the field named in the message in the suite file, then run `vitest run` again.',
  },
  InvalidOptionsError: {
    error: InvalidOptionsError,
    when: 'The digline() plugin options are invalid, or DIGLINE_CREATED_AT / DIGLINE_ENVIRONMENT is malformed.',
    next: 'Fix the option named in the message in vitest.config.ts or the environment.',
  },
  UsageError: {
    error: UsageError,
    when: 'A digline command was called with unknown, missing or malformed arguments.',
    next: 'Run `digline <command> --help`.',
  },
  ConfigNotFoundError: {
    error: ConfigNotFoundError,
    when: 'The CLI found no Vitest config with the digline() plugin, and no --tenant was given.',
    next: 'Run from the project root, pass --config, or pass --tenant and --store.',
  },
  RunNotFoundError: {
    error: RunNotFoundError,
    when: 'No run document exists under the key given (or no run at all for `latest`).',
    next: 'Run `digline list --suite S` to see the keys there are.',
  },
  MisfiledRunError: {
    error: MisfiledRunError,
    when: 'A run document is filed under a name that is not its own key.',
    next: 'Move the file to <key>.json (its key is named in the message), or remove it.',
  },
  TenantMismatchError: {
    error: TenantMismatchError,
    when: 'A run document filed under one tenant says it belongs to another.',
    next: 'Move the file under the tenant it names, or remove it.',
  },
  SuiteMismatchError: {
    error: SuiteMismatchError,
    when: 'A run document filed under one suite says it belongs to another.',
    next: 'Move the file under the suite it names, or remove it.',
  },
  UnknownSchemaVersionError: {
    error: UnknownSchemaVersionError,
    when: 'A run document has a schema_version this digline cannot read.',
    next: 'Upgrade digline to a version that reads it; the file is left as it is.',
  },
  UnreadableRunError: {
    error: UnreadableRunError,
    when: 'A run document is not JSON, or does not match the run document schema.',
    next: 'Inspect the file named in the message; restore it from its source or remove it.',
  },
  CorruptJournalError: {
    error: CorruptJournalError,
    when: 'A journal leg holds a bad line that is not its torn last fragment (a checksum that does not match, not JSON, an unknown record, an invalid case, a misplaced or mismatched header); the journal is left on disk as it is.',
    next: 'Inspect the file and line named in the message; a journal is never repaired: remove its legs to give up the cases it holds, then run the suite again.',
  },
  UnknownJournalVersionError: {
    error: UnknownJournalVersionError,
    when: 'A journal leg has a journal_version this digline cannot read; it is left on disk and never deleted.',
    next: 'Finish the run with a digline that reads that journal_version, or remove the legs by hand to give up the cases they hold.',
  },
  JournalLegExistsError: {
    error: JournalLegExistsError,
    when: 'A leg of a run journal already exists: another process is resuming (or running) the same run.',
    next: 'Wait for that process to finish, or run `digline pending` to see the run and its legs.',
  },
  ResumeMismatchError: {
    error: ResumeMismatchError,
    when: 'A resume was asked for, but a fact the run document asserts (the field named) differs between the journal and the suite as it is now.',
    next: 'Restore what changed and resume again, or start a fresh run with `vitest run` (the journal stays on disk).',
  },
  LiveRunError: {
    error: LiveRunError,
    when: 'A journal leg of the run is held by a process that is still alive on this host.',
    next: 'Wait for that process to finish (or end it), then run the command again.',
  },
  NoPendingJournalError: {
    error: NoPendingJournalError,
    when: '`digline run --resume` found no pending journal to finish (for the key or suite given).',
    next: 'Run `digline pending` to see what is pending, or start a fresh run with `digline run`.',
  },
  UnreadableBaselineError: {
    error: UnreadableBaselineError,
    when: "A suite's committed baseline is not JSON, does not match the baseline schema, or cannot be read.",
    next: 'Restore the baseline from git (`git checkout -- .digline/<tenant>/baselines/<suite>.json`) or promote a run again.',
  },
  UnreadableRegisterError: {
    error: UnreadableRegisterError,
    when: "A line of the tenant's register.jsonl is not a register entry (a merge conflict, a hand edit), or the file cannot be read.",
    next: 'Restore register.jsonl from git (the line number is in the message); nothing was promoted.',
  },
  SuiteNotDeclaredError: {
    error: SuiteNotDeclaredError,
    when: 'A promotion named a suite that no suite file declares now, so its current config_hash is unknown.',
    next: 'Check the suite name with `vitest list`, or restore the suite file, then promote again.',
  },
  ReplayNotPromotableError: {
    error: ReplayNotPromotableError,
    when: 'A promotion named a replay (a run with rejudged_from): a replay never called the target, so it is never a baseline.',
    next: 'Run the suite with `vitest run` and promote that run.',
  },
  ErroredRunNotPromotableError: {
    error: ErroredRunNotPromotableError,
    when: 'A promotion named a run with at least one errored case: a run that was not judged is never a baseline.',
    next: 'Fix the errors, finish the run (`digline run --resume KEY`) or run again, then promote that run.',
  },
  ConfigHashMismatchError: {
    error: ConfigHashMismatchError,
    when: "A promotion named a run made under a config_hash other than the suite's current one.",
    next: 'Run the suite as it is now with `vitest run`, then promote that run.',
  },
  ReplacingRequiredError: {
    error: ReplacingRequiredError,
    when: 'A promotion would replace an existing baseline but did not say so with --replacing.',
    next: "Repeat the command with `--replacing CURRENT`; the message names the current baseline's key.",
  },
  ReplacingMismatchError: {
    error: ReplacingMismatchError,
    when: "A promotion's --replacing does not name the current baseline's key (or there is no baseline to replace).",
    next: 'Repeat the command with the --replacing the message names (or without --replacing when there is no baseline).',
  },
  PromotedRunError: {
    error: PromotedRunError,
    when: "A delete named the run its suite's current baseline was promoted from, whether or not that run is still on disk; nothing was removed.",
    next: 'Promote another run first (`digline promote --suite S --run NEW --replacing KEY`), then repeat the delete.',
  },
  RunRemovedError: {
    error: RunRemovedError,
    when: 'A write, a journal leg, a resume, a promotion or a rejudge named a key that `digline delete` removed (a removal record exists); a removed key is never written again.',
    next: 'Make a new run with `vitest run`; if a delete was interrupted, repeat `digline delete --suite S --run KEY` to finish it.',
  },
  DirectoryUnreadableError: {
    error: DirectoryUnreadableError,
    when: 'A delete could not look through a directory or path it must see (a runs directory of the tenant, a journal directory), so it removed nothing.',
    next: 'Give the user running digline read access to the path named in the message, then repeat the delete.',
  },
  NoRecordedAnswersError: {
    error: NoRecordedAnswersError,
    when: 'A rejudge named a run that recorded no answers (record_responses is false), so there is nothing to judge again.',
    next: 'Set recordResponses: true in the suite, run it with `vitest run`, and re-judge that run.',
  },
  ReplayMismatchError: {
    error: ReplayMismatchError,
    when: "A rejudge cannot judge the recorded answers by the rules of the suite it files under: that suite asks for another number of samples per case, or declares none of the run's cases.",
    next: 'Re-judge into a suite with the same samples and case ids (`--into T`), or run the suite again with `vitest run`.',
  },
  InvalidModelOptionsError: {
    error: InvalidModelOptionsError,
    when: 'A model adapter or an LLM judge from `digline/models` / `scorers.llmJudge` was given invalid options (no model, a bad retry ceiling or in-flight cap, a bad scale or rubric).',
    next: 'Fix the option named in the message in the suite file (see docs/models.md).',
  },
  MissingApiKeyError: {
    error: MissingApiKeyError,
    when: 'An OpenAI-compatible adapter aimed at the default OpenAI endpoint found no API key (neither `apiKey` nor the environment variable it reads).',
    next: 'Set the environment variable named in the message (OPENAI_API_KEY by default), or set `baseURL` for a server that needs no key.',
  },
  MissingPeerDependencyError: {
    error: MissingPeerDependencyError,
    when: 'A `digline/models` adapter needs an optional peer dependency (`openai` or `ai`) that is not installed.',
    next: 'Install it, e.g. `npm install -D openai@6` or `npm install -D ai@6 @ai-sdk/openai@3` (docs/models.md lists the versions).',
  },
  PromotionInProgressError: {
    error: PromotionInProgressError,
    when: 'Another promotion of the same tenant, by a process that is still alive, held the promotion lock for longer than a promotion waits; nothing was written.',
    next: 'Wait for the process the message names to finish (or end it), then repeat the promote.',
  },
  ResumeFilteredError: {
    error: ResumeFilteredError,
    when: 'A `digline run --resume` came with a test-name filter (-t) or a file filter that leaves cases of the resumed run out; a resume runs whole suites.',
    next: 'Run `digline run --resume KEY` without -t and without file filters that leave the suite out.',
  },
  ResumedSuiteNotDeclaredError: {
    error: ResumedSuiteNotDeclaredError,
    when: 'A `digline run --resume` would finish a run of a suite that no suite file declares any more, so nothing would be resumed.',
    next: 'Restore the suite file (same name), then resume again; or remove the journal with `digline delete --suite S --run KEY`.',
  },
  PendingRunUnderKeyError: {
    error: PendingRunUnderKeyError,
    when: 'A fresh run would start under a key that already has a pending journal (a launch with the same DIGLINE_CREATED_AT was stopped); nothing was called.',
    next: 'Finish that run with `digline run --resume KEY`, or run with another DIGLINE_CREATED_AT (or none).',
  },
  BaselineRunOverwriteError: {
    error: BaselineRunOverwriteError,
    when: "A fresh run would be written under the key of the run its suite's baseline was promoted from (the same DIGLINE_CREATED_AT and config); nothing was called.",
    next: 'Run with another DIGLINE_CREATED_AT (or none): the run under the baseline is never overwritten.',
  },
  RunExistsError: {
    error: RunExistsError,
    when: 'A fresh run would be written under a key whose run document already exists (the same DIGLINE_CREATED_AT and config); runs are never overwritten, and nothing was called.',
    next: 'Run with another DIGLINE_CREATED_AT (or none), or remove the old run with `digline delete --suite S --run KEY` first.',
  },
  DuplicateSuiteNameError: {
    error: DuplicateSuiteNameError,
    when: 'Two suite files of one launch declare the same suite name (in the same tenant); both would write under the same keys.',
    next: 'Rename one of the two suites named in the message, then run again.',
  },
  HeaderTooLargeError: {
    error: HeaderTooLargeError,
    when: "A suite's run document header or journal header would be larger than the bounded prefix that listing, deleting and the liveness check read (1 MiB for a document header, 64 KiB for a journal header): refused at start, before any call, naming the largest field.",
    next: 'Shrink the field named in the message (a long system prompt belongs in an artifact file, large metadata in a file the suite reads), then run again.',
  },
  RunPathOccupiedError: {
    error: RunPathOccupiedError,
    when: "A pending journal's run document path holds something that is not that run's readable document (an empty or broken file, a directory, another run's document): the run is not finished, and the journal is kept.",
    next: 'Move the file named in the message aside, then `digline run --resume KEY --suite S` finishes the run from its journal.',
  },
  // gates:
  NoBaselineError: {
    error: NoBaselineError,
    when: '`digline plan` was asked to size a suite that has no baseline: there are no per-case results to simulate from.',
    next: 'Promote a run of the suite with `digline promote --suite S --run KEY`, then plan again.',
  },
  // budget:
  OverBudgetError: {
    error: OverBudgetError,
    when: "A launch's announced bill (its calls, or its cost estimated from the suite's history) already exceeds the suite's budget or DIGLINE_BUDGET_USD; nothing was called.",
    next: 'Raise the budget, run fewer cases, or accept a run that stops at the budget with `digline run --over-budget` (DIGLINE_OVER_BUDGET=1 for `vitest run`).',
  },
  CachedRunNotPromotableError: {
    error: CachedRunNotPromotableError,
    when: 'A promotion named a run that reused answers from the response cache (cached_answers in its header): its answers were not all asked for in that run, so it is never a baseline.',
    next: 'Run the suite with the cache off (`digline run --no-cache`, or DIGLINE_CACHE=0 vitest run) and promote that run.',
  },
  // lifecycle:
  SuiteRetiredError: {
    error: SuiteRetiredError,
    when: 'The suite was retired (`digline retire`): a new run, a resume, a re-judge into it, a comparison, a promotion and an import of one of its runs are refused, naming when it was retired. Its runs, baseline, register lines and removal records stay readable.',
    next: 'Remove the suite from its Vitest file, or declare it under a new name to measure it again; `digline list --retired` shows the retired suites, and `digline show --suite S --run KEY` still reads their runs.',
  },
  ImportConflictError: {
    error: ImportConflictError,
    when: 'An imported run document has the key of a run already filed in the store (or of another file of the same import) with other content; nothing was imported.',
    next: 'Compare the two (`digline show --suite S --run KEY --json` and the file); leave the one you do not want out of the import.',
  },
  ExportFileOccupiedError: {
    error: ExportFileOccupiedError,
    when: 'A file `digline export` would write is in the way: it exists with other content, is not a file, or cannot be looked at; nothing was exported.',
    next: 'Export into an empty directory with --out DIR, or move the file named in the message aside.',
  },
  // pg:
  TeamStoreSchemaTooNewError: {
    error: TeamStoreSchemaTooNewError,
    when: 'The PostgreSQL database of the team store holds a digline schema newer than this digline knows (a newer digline migrated it); nothing was read or written.',
    next: 'Upgrade digline in this project to the version that migrated the database (`npm install -D digline@latest`), then run again.',
  },
  // shards:
  InvalidShardError: {
    error: InvalidShardError,
    when: 'DIGLINE_SHARD or `digline run --shard` is not i/N with whole numbers 1 ≤ i ≤ N, or a resume names a shard count other than the one its journal was started with.',
    next: 'Give --shard i/N (for example 2/4), the same N on every shard of a run, then run again.',
  },
  ShardWithoutCreatedAtError: {
    error: ShardWithoutCreatedAtError,
    when: 'A fresh sharded launch has no DIGLINE_CREATED_AT: each shard would take its own created_at, and so its own key, and the shards would never make one run.',
    next: 'Set DIGLINE_CREATED_AT to the same instant on every shard (in CI, from the workflow run), then run again.',
  },
  ShardMissingError: {
    error: ShardMissingError,
    when: '`digline merge` was given no journal of a shard of the run, or a shard whose cases are not all journaled (it was killed); nothing was filed.',
    next: "Add the missing shard's store directory to `digline merge`, or finish the shard with `digline run --resume KEY --shard i/N` where its journal is.",
  },
  ShardTwiceError: {
    error: ShardTwiceError,
    when: '`digline merge` was given two store directories that both hold the journal of the same shard; nothing was filed.',
    next: "Give each shard's store directory once, then run `digline merge` again.",
  },
  ShardsDisagreeError: {
    error: ShardsDisagreeError,
    when: 'The shards given to `digline merge` are not shards of one run: their journal headers differ in a field (config, cases, target, artifacts, digline version, shard count, …); nothing was filed.',
    next: 'Run every shard from the same commit, config and DIGLINE_CREATED_AT, then merge the shards of that one run.',
  },
  CaseInTwoShardsError: {
    error: CaseInTwoShardsError,
    when: 'Two of the store directories given to `digline merge` journal the same case; a case belongs to exactly one shard, and nothing was filed.',
    next: "Merge the store directories of one run's shards, each once, as its shards wrote them.",
  },
  // report:
  ViewHostRefusedError: {
    error: ViewHostRefusedError,
    when: '`digline view --host H` named a host other than 127.0.0.1: the viewer serves this machine only, and nothing was started.',
    next: 'Run `digline view` without --host (or with --host 127.0.0.1); to share a report, write one file with `digline report --out FILE`.',
  },
  // mcp:
  BillNotAcknowledgedError: {
    error: BillNotAcknowledgedError,
    when: 'An MCP client asked `run_suite` or `resume_run` to run with an acknowledgedCalls that is not the number of calls a fresh plan of that launch announces; nothing was called.',
    next: 'Call `plan_run` with the same arguments, read its bill, then call again with acknowledgedCalls equal to its calls.',
  },
  LaunchNotPlannedError: {
    error: LaunchNotPlannedError,
    when: 'A plan of a launch for an MCP client (`plan_run`, or the fresh plan `run_suite` and `resume_run` take first) ended with vitest refusing or failing (a suite file that does not load, an invalid suite), so a run would not start as planned; nothing was called.',
    next: 'Fix what the quoted vitest lines name (`vitest list` shows whether the suite files load), then call plan_run again.',
  },
} as const satisfies Record<string, ErrorEntry<RefusalClass>>

/** Errors that are not refusals: the run could not be judged. Exit 2. */
export const FAILURES = {
  StoreWriteError: {
    error: StoreWriteError,
    when: 'Writing to the store failed (disk full, read-only, permission, I/O error). The previous state is intact and no temp file is left.',
    next: 'Free space or fix permissions on the store, then run again (a journaled run resumes with `digline run --resume`).',
  },
  ObservedIdentityChangedError: {
    error: ObservedIdentityChangedError,
    when: 'The model a target or judge reported changed within a run; the case where it changed errors.',
    next: 'Pin the model id instead of an alias, or evaluate each model as its own run.',
  },
  RunStoppedError: {
    error: RunStoppedError,
    when: 'The run was stopped before it finished (Ctrl-C, SIGTERM, --bail, or a case Vitest timed out): the calls in flight were aborted and no new call started.',
    next: 'Finish the run with `digline run --resume KEY` (the journaled cases are not called again).',
  },
  // budget:
  BudgetReachedError: {
    error: BudgetReachedError,
    when: "A launch reached its budget (the suite's budget.usd or budget.calls, or DIGLINE_BUDGET_USD): no new call started, the calls in flight finished and were journaled, and the cases not judged stay pending.",
    next: 'Finish the run with `digline run --resume KEY`, with a budget raised in the suite or in DIGLINE_BUDGET_USD (the budget is not part of the run, so changing it never blocks the resume).',
  },
  // pg:
  TeamStoreUnreachableError: {
    error: TeamStoreUnreachableError,
    when: 'The PostgreSQL server of the team store could not be reached, or it refused the connection (server down, wrong host or port, authentication failed, no such database); the message never shows the password.',
    next: 'Start the server or fix the URL (or the PG* variables), check it with `pg_isready`, then run again.',
  },
  // report:
  ReportWriteError: {
    error: ReportWriteError,
    when: '`digline report` could not write its file (a missing permission, a full disk, a directory in the way); the store was only read.',
    next: 'Fix the path or free space, or name another file with `--out FILE`, then run `digline report` again.',
  }, // lead:
  ExportWriteError: {
    error: ExportWriteError,
    when: '`digline export` could not write a file (a missing permission, a full disk, a read-only directory); the files written before it stay, the store was only read.',
    next: 'Fix the directory or free space, or export into another one with `--out DIR`, then run `digline export` again (files already written with the same bytes are left alone).',
  },
} as const satisfies Record<string, ErrorEntry<FailureClass>>

/** Defects of digline itself. Exit 2; the message asks the user to report it. */
export const INTERNAL_ERRORS = {
  InternalError: {
    error: InternalError,
    when: 'digline met a state its own code should never produce (a document it built that its own schema rejects, results it handed itself that do not fit the suite). Never caused by your input.',
    next: 'Report it to the digline maintainers with the message and its stack; a journaled run can still be finished with `digline run --resume`.',
  },
} as const satisfies Record<string, ErrorEntry<InternalClass>>

export type DiglineErrorKind = 'refusal' | 'failure' | 'internal'

/** A real instance of one of digline's error classes (in this process). */
export function isDiglineError(value: unknown): value is DiglineError {
  return value instanceof DiglineError
}

/**
 * What a thrown value is to digline, for real instances and for plain copies that crossed a process
 * boundary alike: the `digline` brand must be an own property and the name an own key of a table.
 */
export function diglineErrorKind(error: unknown): DiglineErrorKind | undefined {
  if (error === null || typeof error !== 'object') return undefined
  if (!Object.hasOwn(error, 'digline') || (error as { digline?: unknown }).digline !== true) return undefined
  const name = (error as { name?: unknown }).name
  if (typeof name !== 'string') return undefined
  if (Object.hasOwn(REFUSALS, name)) return 'refusal'
  if (Object.hasOwn(FAILURES, name)) return 'failure'
  if (Object.hasOwn(INTERNAL_ERRORS, name)) return 'internal'
  return undefined
}

export function isRefusal(error: unknown): boolean {
  return diglineErrorKind(error) === 'refusal'
}

const ALL_ERRORS: Readonly<Record<string, ErrorEntry<abstract new (...args: never[]) => DiglineError>>> = { ...REFUSALS, ...FAILURES, ...INTERNAL_ERRORS }

/**
 * Rebuilds an error that crossed a process boundary as plain data into its real class, so
 * `instanceof` and `exitCode` hold again. Anything that is not recognisably digline's (no brand, or
 * a name no table owns) comes back as a plain Error: a user's `UsageError` stays the user's.
 */
export function reviveError(data: unknown): Error {
  if (data instanceof Error && (isDiglineError(data) || diglineErrorKind(data) === undefined)) return data
  const fields = (data !== null && typeof data === 'object' ? data : {}) as Partial<Record<string, unknown>>
  const message = typeof fields.message === 'string' ? fields.message : String(data)
  const kind = diglineErrorKind(data)
  if (kind === undefined) {
    const plain = new Error(message)
    if (typeof fields.name === 'string') plain.name = fields.name
    if (typeof fields.stack === 'string') plain.stack = fields.stack
    return plain
  }
  const name = fields.name as string
  const entry = ALL_ERRORS[name]!
  // built without its constructor: the classes' constructors differ, the fields do not
  const revived = Object.create(entry.error.prototype as object) as DiglineError
  const next = typeof fields.next === 'string' ? fields.next : entry.next
  const path = Array.isArray(fields.path) ? fields.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number') : []
  const own = { name, message, next, path, digline: true, exitCode: kind === 'refusal' ? 64 : 2 }
  for (const [key, value] of Object.entries(own)) Object.defineProperty(revived, key, { value, enumerable: key !== 'message', writable: false, configurable: true })
  if (typeof fields.errno === 'string') Object.defineProperty(revived, 'errno', { value: fields.errno, enumerable: true })
  Object.defineProperty(revived, 'stack', { value: typeof fields.stack === 'string' ? fields.stack : `${name}: ${message}`, writable: true, configurable: true })
  return revived
}
