// What the lifecycle use cases refuse or fail with: promotion, re-judging, retiring, import, export
// and merging shards.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, DiglineFailure, type RefusalFamily, type FailureFamily } from '../../errors/base.js'

export class ReplayNotPromotableError extends DiglineRefusal {
  readonly name = 'ReplayNotPromotableError'
}
export class SliceNotPromotableError extends DiglineRefusal {
  readonly name = 'SliceNotPromotableError'
}
export class ErroredRunNotPromotableError extends DiglineRefusal {
  readonly name = 'ErroredRunNotPromotableError'
}
export class ConfigHashMismatchError extends DiglineRefusal {
  readonly name = 'ConfigHashMismatchError'
}
export class CachedRunNotPromotableError extends DiglineRefusal {
  readonly name = 'CachedRunNotPromotableError'
}
export class NoRecordedAnswersError extends DiglineRefusal {
  readonly name = 'NoRecordedAnswersError'
}
export class ReplayMismatchError extends DiglineRefusal {
  readonly name = 'ReplayMismatchError'
}
export class SuiteRetiredError extends DiglineRefusal {
  readonly name = 'SuiteRetiredError'
}
export class ImportConflictError extends DiglineRefusal {
  readonly name = 'ImportConflictError'
}
export class InconsistentRunError extends DiglineRefusal {
  readonly name = 'InconsistentRunError'
}
export class ExportFileOccupiedError extends DiglineRefusal {
  readonly name = 'ExportFileOccupiedError'
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
export class ExportWriteError extends DiglineFailure {
  readonly name = 'ExportWriteError'
}

export const LIFECYCLE_REFUSALS = {
  ReplayNotPromotableError: {
    error: ReplayNotPromotableError,
    when: 'A promotion named a replay (a run with rejudged_from): a replay never called the target, so it is never a baseline.',
    next: 'Run the suite with `vitest run` and promote that run.',
  },
  SliceNotPromotableError: {
    error: SliceNotPromotableError,
    when: 'A promotion named a slice (a run of the cases of some tags, `digline run --tag T`): a slice is never the baseline of the whole suite.',
    next: 'Run the whole suite with `digline run` (no --tag) and promote that run.',
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
  CachedRunNotPromotableError: {
    error: CachedRunNotPromotableError,
    when: 'A promotion named a run that reused answers from the response cache (cached_answers in its header): its answers were not all asked for in that run, so it is never a baseline.',
    next: 'Run the suite with the cache off (`digline run --no-cache`, or DIGLINE_CACHE=0 vitest run) and promote that run.',
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
  InconsistentRunError: {
    error: InconsistentRunError,
    when: '`digline import` was given a run document that contradicts itself, one digline could not have written: aggregates, verdicts, passed samples or scores its own results do not give, a case twice, a sample count other than the rules say. Nothing was imported.',
    next: 'Import the file `digline export` wrote for the run, unedited; the message names the first field that disagrees.',
  },
  ExportFileOccupiedError: {
    error: ExportFileOccupiedError,
    when: 'A file `digline export` (or `digline review export`) would write is in the way: it exists with other content, is not a file, or cannot be looked at; nothing was exported.',
    next: 'Export into an empty directory with --out DIR, or move the file named in the message aside.',
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
} as const satisfies RefusalFamily

export const LIFECYCLE_FAILURES = {
  ExportWriteError: {
    error: ExportWriteError,
    when: '`digline export` (or `digline review export`) could not write a file (a missing permission, a full disk, a read-only directory); the files written before it stay, the store was only read.',
    next: 'Fix the directory or free space, or export into another one with `--out DIR`, then run `digline export` again (files already written with the same bytes are left alone).',
  },
} as const satisfies FailureFamily
