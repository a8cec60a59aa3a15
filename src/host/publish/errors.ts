// What `digline comment` refuses, and how publishing to a forge fails.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineFailure, DiglineRefusal, type FailureFamily, type RefusalFamily } from '../../errors/base.js'

export class PublishTokenMissingError extends DiglineRefusal {
  readonly name = 'PublishTokenMissingError'
}
export class NotAPullRequestError extends DiglineRefusal {
  readonly name = 'NotAPullRequestError'
}
export class PublishFailedError extends DiglineFailure {
  readonly name = 'PublishFailedError'
}

export const PUBLISH_REFUSALS = {
  PublishTokenMissingError: {
    error: PublishTokenMissingError,
    when: '`digline comment` found no token to post with (GITHUB_TOKEN on GitHub, GITLAB_TOKEN on GitLab); nothing was posted.',
    next: 'Give the step the token (`env: GITHUB_TOKEN: ${{ github.token }}`), or run `digline comment --dry-run` to print the comment.',
  },
  NotAPullRequestError: {
    error: NotAPullRequestError,
    when: '`digline comment` ran outside a pull request (or merge request): there is nothing to comment on, and nothing was posted.',
    next: 'Run it in a `pull_request` job or a merge-request pipeline, pass `--pr N`, or run `digline comment --dry-run` to print the comment.',
  },
} as const satisfies RefusalFamily

export const PUBLISH_FAILURES = {
  PublishFailedError: {
    error: PublishFailedError,
    when: 'The forge answered `digline comment` with an error other than a missing permission (bad credentials, not found, a server error); the gate is not affected.',
    next: 'Check the token and the repository named in the message, then run `digline comment` again.',
  },
} as const satisfies FailureFamily
