// Writes test/file-weights.json from a Vitest JSON report of the whole suite (ADR 0390): each file's
// duration in seconds, which the test sequencer reads on a fresh clone (where Vitest remembers no
// duration) to start the longest files first.
//   npx vitest run --config test/vitest.config.ts --reporter=json --outputFile=/tmp/vitest.json
//   node scripts/record-test-weights.js /tmp/vitest.json
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'

const [report] = process.argv.slice(2)
if (report === undefined) {
  console.error('usage: node scripts/record-test-weights.js <vitest-json-report>')
  process.exit(64)
}
const root = new URL('..', import.meta.url).pathname
const { testResults } = JSON.parse(readFileSync(report, 'utf8'))
const seconds = Object.fromEntries(
  testResults.map((file) => [relative(root, file.name), Math.max(0.1, Math.round((file.endTime - file.startTime) / 100) / 10)]).sort(([a], [b]) => (a < b ? -1 : 1)),
)
writeFileSync(new URL('../test/file-weights.json', import.meta.url), JSON.stringify({ seconds }, null, 2) + '\n')
console.log(`test/file-weights.json: ${Object.keys(seconds).length} files`)
