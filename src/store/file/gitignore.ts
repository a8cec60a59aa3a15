// Writes the generated .digline/.gitignore (its text: ../store-gitignore.ts), and brings one digline
// generated before the response cache up to date.
import { storeWriteError, writeFileAtomic } from './atomic-write.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import type { StorePaths } from './paths.js'
import { STORE_GITIGNORE } from '../store-gitignore.js'

export { STORE_GITIGNORE }

/** What digline generated before the response cache; such a file is brought up to date, a hand-edited one is left alone. */
const PREVIOUS_GITIGNORE = '*/runs/\n*/removed/\n.*.tmp\n'

/** Writes .digline/.gitignore when it is missing (or is the previous generated one); returns whether it was missing. */
export async function ensureGitignore(fs: FsLayer, paths: StorePaths): Promise<boolean> {
  const file = paths.gitignoreFile()
  try {
    const stats = await fs.lstat(file)
    // Read only when it could be the previous generated text (same size): most calls read nothing.
    if (stats.isFile() && stats.size === Buffer.byteLength(PREVIOUS_GITIGNORE)) {
      const text = await fs.readFile(file).then(
        (bytes) => bytes.toString('utf8'),
        () => undefined,
      )
      if (text === PREVIOUS_GITIGNORE) await writeFileAtomic(fs, file, STORE_GITIGNORE)
    }
    return false
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw storeWriteError('checking', file, error)
  }
  await writeFileAtomic(fs, file, STORE_GITIGNORE)
  return true
}
