// Refusals several of the host's use cases (and the front ends, through src/host/index.ts) raise.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../errors/base.js'

export class UsageError extends DiglineRefusal {
  readonly name = 'UsageError'
}
export class ConfigNotFoundError extends DiglineRefusal {
  readonly name = 'ConfigNotFoundError'
}
export class NoPendingJournalError extends DiglineRefusal {
  readonly name = 'NoPendingJournalError'
}
export class SuiteNotDeclaredError extends DiglineRefusal {
  readonly name = 'SuiteNotDeclaredError'
}

export class InitWouldOverwriteError extends DiglineRefusal {
  readonly name = 'InitWouldOverwriteError'
}

export const HOST_REFUSALS = {
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
  NoPendingJournalError: {
    error: NoPendingJournalError,
    when: '`digline run --resume` found no pending journal to finish (for the key or suite given).',
    next: 'Run `digline pending` to see what is pending, or start a fresh run with `digline run`.',
  },
  SuiteNotDeclaredError: {
    error: SuiteNotDeclaredError,
    when: 'A promotion named a suite that no suite file declares now, so its current config_hash is unknown.',
    next: 'Check the suite name with `vitest list`, or restore the suite file, then promote again.',
  },
  InitWouldOverwriteError: {
    error: InitWouldOverwriteError,
    when: '`digline init` found files it would write (or another Vitest or Vite config) already in the project; it wrote nothing.',
    next: 'Move the listed files aside, or add digline to your own config by hand (docs/guide.md), then run `npx digline init` again.',
  },
} as const satisfies RefusalFamily
