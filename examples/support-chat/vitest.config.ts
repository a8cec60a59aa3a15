import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { digline } from 'digline/plugin'

export default defineConfig({
  // This directory, wherever `vitest` is started from: the store lands in examples/support-chat/.digline/.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [digline({ tenant: 'examples' })],
  test: { include: ['evals/**/*.eval.ts'] },
})
