// Why a promotion's compare-and-swap did not land: the baseline it expected is not the current one.
// Both backends refuse with these words, so a person sees the same sentence whatever the store.
import type { BaselineDocument } from '../document/baseline.js'
import { ReplacingMismatchError, ReplacingRequiredError } from '../errors.js'

function promoteCommand(suite: string, key: string, replacing: string | null): string {
  return `digline promote --suite ${suite} --run ${key}${replacing === null ? '' : ` --replacing ${replacing}`}`
}

/** The refusal of a promotion of KEY that expected `expected` (null: no baseline) when `current` is the suite's baseline. */
export function notCurrentBaseline(suite: string, key: string, expected: string | null, current: BaselineDocument | undefined): Error {
  if (current === undefined) {
    return new ReplacingMismatchError(
      `refused to promote run ${key} of suite ${suite}: the promotion expected baseline ${expected}, but suite ${suite} has no baseline now; nothing was written`,
      promoteCommand(suite, key, null),
      ['--replacing'],
    )
  }
  if (expected === null) {
    return new ReplacingRequiredError(
      `refused to promote run ${key} of suite ${suite}: suite ${suite} has a baseline now (${current.promoted_from}, promoted ${current.promoted_at}), and replacing it must be said with --replacing ${current.promoted_from}; nothing was written`,
      promoteCommand(suite, key, current.promoted_from),
      ['--replacing'],
    )
  }
  return new ReplacingMismatchError(
    `refused to promote run ${key} of suite ${suite}: the promotion expected baseline ${expected}, but the current baseline is ${current.promoted_from} (promoted ${current.promoted_at}); nothing was written`,
    promoteCommand(suite, key, current.promoted_from),
    ['--replacing'],
  )
}
