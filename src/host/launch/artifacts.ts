import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { globMatches, isGlob } from '../../suite/lazy-glob.js'
import { InvalidSuiteError } from '../../suite/errors.js'

/**
 * path → sha256 of each declared artifact, relative to the project root. A plain path names one file;
 * a glob (`prompts/**\/*.md`) names every file it matches, in code-point order of their paths. The
 * record follows the declared order, each glob's matches at its place; files are hashed one at a time.
 */
export async function digestArtifacts(entries: readonly string[], root: string, suite: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [i, entry] of entries.entries()) {
    const refuse = (why: string): never => {
      throw new InvalidSuiteError(
        `suite ${JSON.stringify(suite)} was refused: artifacts.${i} (${entry}) ${why}`,
        'Fix the artifact path in the suite file (relative to the Vitest root).',
        ['artifacts', i],
      )
    }
    let paths = [entry]
    if (await isGlob(entry)) {
      const matched = (await globMatches(entry, root)).sort(byCodePoint)
      // a file whose name merely looks like a glob (`data/[draft].md`) is still that file
      if (matched.length === 0 && !(await isFile(resolve(root, entry)))) refuse('matches no file')
      if (matched.length > 0) paths = matched
    }
    for (const path of paths) {
      if (path in out) continue
      try {
        out[path] = await sha256OfFile(resolve(root, path))
      } catch (error) {
        refuse(
          path === entry
            ? `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`
            : `matched ${path}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
        )
      }
    }
  }
  return out
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function sha256OfFile(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256')
    createReadStream(path)
      .on('error', fail)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done(hash.digest('hex')))
  })
}
