// What `digline plan` refuses.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../../errors/base.js'

export class NoBaselineError extends DiglineRefusal {
  readonly name = 'NoBaselineError'
}

export class SharesNotSizedError extends DiglineRefusal {
  readonly name = 'SharesNotSizedError'
}

export const PLAN_REFUSALS = {
  SharesNotSizedError: {
    error: SharesNotSizedError,
    when: "`digline plan` was asked to size a suite that takes adaptive samples (samples: { min, max }) and gates on shares of passing samples (gateOn: 'samples'): where each case stopped shapes its share, which the plan's simulation of fixed samples does not model.",
    next: "Size the suite's verdict gate instead: the same suite without gateOn: 'samples' (a promoted run of it), then `digline plan --suite S --detect 0.1` (the drop to catch).",
  },
  NoBaselineError: {
    error: NoBaselineError,
    when: '`digline plan` was asked to size a suite that has no baseline: there are no per-case results to simulate from.',
    next: 'Promote a run of the suite with `digline promote --suite S --run KEY`, then plan again.',
  },
} as const satisfies RefusalFamily
