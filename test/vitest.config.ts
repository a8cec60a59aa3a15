import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
    // CLI output is compared as text; CI=true would otherwise turn picocolors on in-process
    env: { NO_COLOR: '1' },
  },
})
