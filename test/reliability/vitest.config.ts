// `npm run test:reliability`: the reliability harness alone, with its figures summed up at the end.
import { defineConfig } from 'vitest/config'
import base from '../vitest.config.js'
import FiguresReporter from './figures-reporter.js'

// The long mode (run by hand) loops 100 kills and over 100,000 fuzzed inputs: its tests get hours, not 120 s.
const LONG = process.env.DIGLINE_RELIABILITY_LONG === '1'
/** Files of the main run whose loops are shorter in CI than in the long mode (ADR 0200): the long mode runs them too. */
export const LONG_MODE_FILES = ['test/e2e/shards.test.ts', 'test/e2e/promotion-race.test.ts']

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['test/reliability/**/*.test.ts', ...(LONG ? LONG_MODE_FILES : [])],
    maxWorkers: Number(process.env.DIGLINE_TEST_WORKERS ?? 2),
    ...(LONG ? { testTimeout: 4 * 3_600_000, hookTimeout: 4 * 3_600_000 } : {}),
    globalSetup: ['test/helpers/global-setup.ts', 'test/reliability/report-setup.ts'],
    reporters: ['default', new FiguresReporter()],
  },
})
