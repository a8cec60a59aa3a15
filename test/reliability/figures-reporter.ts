// Prints the sum of the `[reliability]` figures when the run ends.
import { readFileSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'

const ORDER = [
  'kills',
  'crash points',
  'power-loss points',
  'I/O error points',
  'inputs fuzzed',
  'attacks refused',
  'cases lost',
  'documents differing',
  'outside writes',
  'manual recoveries',
  'stray temp files',
]

export default class FiguresReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const totals = new Map<string, number>()
    const file = process.env.DIGLINE_RELIABILITY_FIGURES
    try {
      for (const line of readFileSync(file ?? '', 'utf8').split('\n')) {
        if (line === '') continue
        const { name, value } = JSON.parse(line) as { name: string; value: number }
        totals.set(name, (totals.get(name) ?? 0) + value)
      }
    } catch {
      // no figure was reported
    }
    const failed = modules.filter((m) => m.state() === 'failed').map((m) => m.moduleId.replace(/^.*\/test\//, 'test/'))
    const width = Math.max(...ORDER.map((n) => n.length))
    const lines = ORDER.map((name) => `  ${name.padEnd(width)}  ${(totals.get(name) ?? 0).toLocaleString('en-US').padStart(9)}`)
    const tail = failed.length === 0 ? [] : ['', `  failing files: ${failed.join(', ')}`]
    process.stdout.write(['', '[reliability] summary', ...lines, ...tail, ''].join('\n') + '\n')
  }
}
