import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { InvalidSuiteError } from '../errors.js'
import { sha256Hex } from '../suite/hashing.js'

/** path → sha256 of each declared artifact, relative to the project root, in declared order. */
export async function digestArtifacts(paths: readonly string[], root: string, suite: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [i, path] of paths.entries()) {
    try {
      out[path] = sha256Hex(await readFile(resolve(root, path)))
    } catch (error) {
      throw new InvalidSuiteError(
        `suite ${JSON.stringify(suite)} was refused: artifacts.${i} (${path}) cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
        'Fix the artifact path in the suite file (relative to the Vitest root).',
        ['artifacts', i],
      )
    }
  }
  return out
}
