// What only the Vitest plugin raises.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../src/errors/base.js'

export class DuplicateSuiteNameError extends DiglineRefusal {
  readonly name = 'DuplicateSuiteNameError'
}

export const PLUGIN_REFUSALS = {
  DuplicateSuiteNameError: {
    error: DuplicateSuiteNameError,
    when: 'Two suite files of one launch declare the same suite name (in the same tenant); both would write under the same keys.',
    next: 'Rename one of the two suites named in the message, then run again.',
  },
} as const satisfies RefusalFamily
