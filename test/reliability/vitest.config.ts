// `npm run test:reliability`: the reliability harness alone, with its figures summed up at the end.
import { defineConfig } from 'vitest/config'
import base from '../vitest.config.js'
import FiguresReporter from './figures-reporter.js'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['test/reliability/**/*.test.ts'],
    maxWorkers: Number(process.env.DIGLINE_TEST_WORKERS ?? 2),
    globalSetup: ['test/helpers/global-setup.ts', 'test/reliability/report-setup.ts'],
    reporters: ['default', new FiguresReporter()],
  },
})
