import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import InstallAwareSequencer from './helpers/install-aware-sequencer.js'

// Most test files wait on child processes (vitest, digline) rather than compute, so one worker per
// core leaves cores idle: on the 2-core CI machine, 3 files run at once (ADR 0033).
// DIGLINE_TEST_WORKERS overrides it. The files that measure overlap or wall time run afterwards,
// one at a time, on an otherwise quiet machine.
const workers = Number(process.env.DIGLINE_TEST_WORKERS ?? availableParallelism() + 1)
export const TIMED = [
  'test/e2e/models.test.ts',
  'test/e2e/concurrency.test.ts',
  'test/unit/driver/execute-scheduling.test.ts',
  'test/unit/models/openai-model.test.ts',
  // pgfaults: restarts the PostgreSQL server, which every other test using it at that moment would feel
  'test/store/postgres/faults/server-restart.test.ts',
]

const SHARED_FORK = ['test/unit/**/*.test.ts', 'test/store/**/*.test.ts']

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    // each project names its own files: a project's `include` would extend this one's, not replace it
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
    // DIGLINE_TEST_CPU_LOG=FILE: each file's CPU seconds, its processes' included (ADR 0390)
    setupFiles: process.env.DIGLINE_TEST_CPU_LOG ? ['test/helpers/cpu-log.ts'] : [],
    // the files that need no installed package first, while it installs; the longest first (ADR 0170)
    sequence: { sequencer: InstallAwareSequencer },
    // CLI output is compared as text; CI=true would otherwise turn picocolors on in-process
    env: { NO_COLOR: '1' },
    projects: [
      // the unit and store tests leave no state in their process: a fork runs one file after another
      // instead of a fresh fork (and a fresh import of Vitest and src/) per file (ADR 0481)
      { extends: true, test: { name: 'shared-fork', include: SHARED_FORK, exclude: TIMED, isolate: false, maxWorkers: workers, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'parallel', include: ['test/**/*.test.ts'], exclude: [...TIMED, ...SHARED_FORK], maxWorkers: workers, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timed', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
})
