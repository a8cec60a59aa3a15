// What every store backend raises through the contract: runs, journals, baselines and removals that
// cannot be read or written as asked.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, DiglineFailure, type RefusalFamily, type FailureFamily } from '../errors/base.js'

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
export class LiveRunError extends DiglineRefusal {
  readonly name = 'LiveRunError'
}
export class UnreadableBaselineError extends DiglineRefusal {
  readonly name = 'UnreadableBaselineError'
}
export class UnreadableRegisterError extends DiglineRefusal {
  readonly name = 'UnreadableRegisterError'
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
export class HeaderTooLargeError extends DiglineRefusal {
  readonly name = 'HeaderTooLargeError'
}
export class InvalidReviewError extends DiglineRefusal {
  readonly name = 'InvalidReviewError'
}
export class UnreadableReviewError extends DiglineRefusal {
  readonly name = 'UnreadableReviewError'
}
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

export const STORE_REFUSALS = {
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
  LiveRunError: {
    error: LiveRunError,
    when: 'A journal leg of the run is held by a process that is still alive on this host.',
    next: 'Wait for that process to finish (or end it), then run the command again.',
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
  HeaderTooLargeError: {
    error: HeaderTooLargeError,
    when: "A suite's run document header or journal header would be larger than the bounded prefix that listing, deleting and the liveness check read (1 MiB for a document header, 64 KiB for a journal header): refused at start, before any call, naming the largest field.",
    next: 'Shrink the field named in the message (a long system prompt belongs in an artifact file, large metadata in a file the suite reads), then run again.',
  },
  InvalidReviewError: {
    error: InvalidReviewError,
    when: 'A review record (a label of a case) is not one: an empty or overlong reviewer or note, a verdict other than pass or fail, an opinion of a judge other than agree or disagree, a field it does not hold, or a review_id that is not the digest of its fields; nothing was written.',
    next: 'Label the case again with the field the message names fixed.',
  },
  UnreadableReviewError: {
    error: UnreadableReviewError,
    when: 'A stored review record cannot be read back as one (a hand edit, a file or row that is not JSON or not a review record, or is filed under another run).',
    next: 'Inspect the record the message names; restore it from a backup or remove it.',
  },
} as const satisfies RefusalFamily

export const STORE_FAILURES = {
  StoreWriteError: {
    error: StoreWriteError,
    when: 'Writing to the store failed (disk full, read-only, permission, I/O error). The previous state is intact and no temp file is left.',
    next: 'Free space or fix permissions on the store, then run again (a journaled run resumes with `digline run --resume`).',
  },
} as const satisfies FailureFamily
