// What only the Vitest plugin raises.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../src/errors/base.js'

export class DuplicateSuiteNameError extends DiglineRefusal {
  readonly name = 'DuplicateSuiteNameError'
}

/** Raised by plugin/require-refusal.cts, the `require` entry of digline/plugin, as plain branded data. */
export class CommonJsConfigError extends DiglineRefusal {
  readonly name = 'CommonJsConfigError'
}

export const PLUGIN_REFUSALS = {
  DuplicateSuiteNameError: {
    error: DuplicateSuiteNameError,
    when: 'Two suite files of one launch declare the same suite name (in the same tenant); both would write under the same keys.',
    next: 'Rename one of the two suites named in the message, then run again.',
  },
  CommonJsConfigError: {
    error: CommonJsConfigError,
    when: 'A Vitest config loaded as CommonJS (its package.json is not "type": "module") imported digline/plugin, which is ESM only; nothing ran.',
    next: 'Rename the config to vitest.config.mts, or set "type": "module" in package.json (`npx digline init` writes the .mts config for a CommonJS package).',
  },
} as const satisfies RefusalFamily
