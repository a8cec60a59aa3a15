// dataset() as a suite file calls it: paths are relative to the Vitest root, as artifacts are.
import { inject } from 'vitest'
import { readDataset, type DatasetOptions } from '../src/suite/dataset.js'
import type { Dataset } from '../src/suite/types.js'

/**
 * Reads a suite's cases from files: `cases: await dataset('data/tickets.jsonl', { map })`. JSONL,
 * a JSON array, CSV with a header row, or a glob of files (one case per file, or per row of each
 * .jsonl/.json/.csv file), in code-point order of their paths; each file is recorded by sha256.
 */
export function dataset<I = unknown, E = unknown>(pattern: string, options: DatasetOptions<I, E> = {}): Promise<Dataset<I, E>> {
  return readDataset(pattern, { ...options, root: options.root ?? vitestRoot() })
}

function vitestRoot(): string {
  try {
    const provided = inject('digline')
    if (provided.refusal === undefined) return provided.projectRoot
  } catch {
    // outside a Vitest worker: the working directory
  }
  return process.cwd()
}
