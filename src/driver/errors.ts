// What the driver raises while it asks a target and its judges.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineFailure, type FailureFamily } from '../errors/base.js'

export class ObservedIdentityChangedError extends DiglineFailure {
  readonly name = 'ObservedIdentityChangedError'
}

export const DRIVER_FAILURES = {
  ObservedIdentityChangedError: {
    error: ObservedIdentityChangedError,
    when: 'The model a target or judge reported changed within a run; the case where it changed errors.',
    next: 'Pin the model id instead of an alias, or evaluate each model as its own run.',
  },
} as const satisfies FailureFamily
