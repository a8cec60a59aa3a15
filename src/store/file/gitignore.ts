// The generated .digline/.gitignore: run documents, journals and removal records stay out of git,
// and so does a temp file a crash left behind anywhere in the store; baselines and the register are
// committed.
import { storeWriteError, writeFileAtomic } from './atomic-write.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import type { StorePaths } from './paths.js'

export const STORE_GITIGNORE = '*/runs/\n*/removed/\n.*.tmp\n'

/** Writes .digline/.gitignore when it is missing; returns whether it did. */
export async function ensureGitignore(fs: FsLayer, paths: StorePaths): Promise<boolean> {
  const file = paths.gitignoreFile()
  try {
    await fs.lstat(file)
    return false
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw storeWriteError('checking', file, error)
  }
  await writeFileAtomic(fs, file, STORE_GITIGNORE)
  return true
}
