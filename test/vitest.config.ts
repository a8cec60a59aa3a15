import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Most test files wait on child processes (vitest, digline) rather than compute, so one worker per
// core leaves cores idle: on the 2-core CI machine, 3 files run at once (ADR 0033). DIGLINE_TEST_WORKERS
// overrides it.
const workers = Number(process.env.DIGLINE_TEST_WORKERS ?? availableParallelism() + 1)

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: workers,
    globalSetup: ['test/helpers/global-setup.ts'],
    // CLI output is compared as text; CI=true would otherwise turn picocolors on in-process
    env: { NO_COLOR: '1' },
  },
})
