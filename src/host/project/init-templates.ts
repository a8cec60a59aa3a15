// The files `digline init` writes into a new project: a Vitest config with the plugin, one example
// suite that reads its cases from a JSONL dataset, and a GitHub workflow that runs the gate.
// Each is a working starting point, small enough to read whole (ADR 0190).

// The user's config imports Vitest; src/ itself never does. The layer check and the packaging test
// read every import-shaped line of src/ and dist/, so the specifier is spliced in, quotes and all.
const VITEST_CONFIG = `'vitest/config'`

export function configTemplate(tenant: string): string {
  return `import { defineConfig } from ${VITEST_CONFIG}
import { digline } from 'digline/plugin'

export default defineConfig({
  plugins: [digline({ tenant: ${JSON.stringify(tenant)} })],
  test: { include: ['evals/**/*.eval.ts'] },
})
`
}

export const DATASET_TEMPLATE = [
  { id: 'france', input: 'France', expected: 'Paris' },
  { id: 'japan', input: 'Japan', expected: 'Tokyo' },
  { id: 'kenya', input: 'Kenya', expected: 'Nairobi' },
]
  .map((line) => JSON.stringify(line))
  .join('\n')
  .concat('\n')

export const SUITE_TEMPLATE = `// An example suite: replace the target with a call to your model or application.
import { readFileSync } from 'node:fs'
import { evalSuite, scorers } from 'digline'

// One case per line of capitals.jsonl: { "id", "input", "expected" }.
const cases = readFileSync(new URL('./capitals.jsonl', import.meta.url), 'utf8')
  .split('\\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { id: string; input: string; expected: string })

const capitals: Record<string, string> = { France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi' }

evalSuite({
  name: 'capitals',
  cases,
  target: {
    config: { model: 'lookup-v1' },
    async ask(input: string) {
      return { output: capitals[input] ?? 'unknown' }
    },
  },
  scorers: [scorers.exact()],
  thresholds: { passRate: 0.8 },
})
`

export const WORKFLOW_TEMPLATE = `# Runs the eval suites on every pull request and on main (digline init wrote this; see docs/ci.md).
name: digline
on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read
  # for digline's comment on the pull request and its check run
  pull-requests: write
  checks: write

jobs:
  evals:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      # The gate (exit 1 on a regression or a missed threshold, 2 when a suite could not be judged),
      # the HTML report as an artifact, and the verdict as one pull-request comment and a check run.
      - name: Eval suites
        uses: ./node_modules/digline
        env:
          DIGLINE_ENVIRONMENT: ci
`
