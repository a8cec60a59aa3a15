// What both backends refuse of a promotion before and at its compare-and-swap, in the same words
// whatever the store: a request that is not one, and a baseline other than the one it expected.
import type { BaselineDocument } from '../document/baseline.js'
import { ReplacingMismatchError, ReplacingRequiredError, UnreadableBaselineError } from './errors.js'
import { assertSafeSegment } from '../suite/assert-safe-segment.js'
import type { PromotionRequest } from './contract.js'

/** Safe names, and a baseline and register line that belong to the suite and tenant promoted (anything else is digline's own bug). */
export function assertPromotionRequest({ tenant, suite, expected, baseline, entry }: PromotionRequest): void {
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  const key = baseline.promoted_from
  assertSafeSegment('key', key)
  if (expected !== null) assertSafeSegment('key', expected)
  if (baseline.tenant !== tenant || baseline.suite !== suite || entry.suite !== suite || entry.key !== key) {
    throw new UnreadableBaselineError(
      `refused to promote run ${key}: the baseline (tenant ${baseline.tenant}, suite ${baseline.suite}) or its register line (suite ${entry.suite}, key ${entry.key}) is not of suite ${suite} of tenant ${tenant}`,
      'a promotion digline built itself is a bug: report it with this message',
    )
  }
}

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
