// What `digline plan` refuses.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../../errors/base.js'

export class NoBaselineError extends DiglineRefusal {
  readonly name = 'NoBaselineError'
}

export const PLAN_REFUSALS = {
  NoBaselineError: {
    error: NoBaselineError,
    when: '`digline plan` was asked to size a suite that has no baseline: there are no per-case results to simulate from.',
    next: 'Promote a run of the suite with `digline promote --suite S --run KEY`, then plan again.',
  },
} as const satisfies RefusalFamily
