// Where the test files append their `[reliability]` figures for the summary reporter to add up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'digline-figures-'))
  process.env.DIGLINE_RELIABILITY_FIGURES = join(dir, 'figures.jsonl')
  return () => rmSync(dir, { recursive: true, force: true })
}
