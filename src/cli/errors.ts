// What only the CLI's own commands raise.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, DiglineFailure, type RefusalFamily, type FailureFamily } from '../errors/base.js'

export class ViewHostRefusedError extends DiglineRefusal {
  readonly name = 'ViewHostRefusedError'
}
export class ReportWriteError extends DiglineFailure {
  readonly name = 'ReportWriteError'
}

export const CLI_REFUSALS = {
  ViewHostRefusedError: {
    error: ViewHostRefusedError,
    when: '`digline view --host H` named a host other than 127.0.0.1: the viewer serves this machine only, and nothing was started.',
    next: 'Run `digline view` without --host (or with --host 127.0.0.1); to share a report, write one file with `digline report --out FILE`.',
  },
} as const satisfies RefusalFamily

export const CLI_FAILURES = {
  ReportWriteError: {
    error: ReportWriteError,
    when: '`digline report` could not write its file (a missing permission, a full disk, a directory in the way); the store was only read.',
    next: 'Fix the path or free space, or name another file with `--out FILE`, then run `digline report` again.',
  },
} as const satisfies FailureFamily
