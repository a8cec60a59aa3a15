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
/** A rejudge's --into names a suite no suite file of the project declares. */
export function replayIntoUndeclared(suite: string, key: string, into: string): SuiteNotDeclaredError {
  return new SuiteNotDeclaredError(
    `refused to re-judge run ${key} of suite ${suite} into suite ${into}: no suite file declares suite ${into} in this Vitest project, so nothing was judged and nothing was filed`,
    `vitest list (to see the suites declared), then digline rejudge --suite ${suite} --run ${key} --into T`,
    ['--into'],
  )
}

export class InitWouldOverwriteError extends DiglineRefusal {
  readonly name = 'InitWouldOverwriteError'
}

export class ReviewerUnknownError extends DiglineRefusal {
  readonly name = 'ReviewerUnknownError'
}
export class ReviewCaseNotFoundError extends DiglineRefusal {
  readonly name = 'ReviewCaseNotFoundError'
}
export class UnknownReviewJudgeError extends DiglineRefusal {
  readonly name = 'UnknownReviewJudgeError'
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
  ReviewerUnknownError: {
    error: ReviewerUnknownError,
    when: "`digline view --review` could not name the person labelling: DIGLINE_REVIEWER is not set and git's user.email is not either (or is not one line of plain text); nothing was started.",
    next: 'Set DIGLINE_REVIEWER=you@example.com (or `git config user.email you@example.com`), then run `digline view --review` again.',
  },
  ReviewCaseNotFoundError: {
    error: ReviewCaseNotFoundError,
    when: 'A label named a case the run does not hold (or a case that errored, whose answer was never judged); nothing was written.',
    next: 'Label a case the run shows in `digline view --review`; `digline show --suite S --run KEY` lists its cases.',
  },
  UnknownReviewJudgeError: {
    error: UnknownReviewJudgeError,
    when: "A label gave an opinion of a scorer that is not one of the run's scorers; nothing was written.",
    next: "Agree or disagree only with the scorers the run names (its judge_config, shown in the report's run card).",
  },
} as const satisfies RefusalFamily
