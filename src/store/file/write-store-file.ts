// One file of the store written whole under a directory it may have to create: the directory (and
// its parents) made, the store's .gitignore ensured, the text written atomically; a failed write
// removes the directories it created, so a refusal leaves the store as it was. The response cache,
// tool recordings and review records each file their entries through it.
import { ensureDirectory, removeCreatedDirectories, writeFileAtomic } from './atomic-write.js'
import type { FsLayer } from './fs-layer.js'
import { ensureGitignore } from './gitignore.js'
import { guardedWrite } from './guarded-io.js'
import type { StorePaths } from './paths.js'

export async function writeStoreFile(fs: FsLayer, paths: StorePaths, dir: string, file: string, text: string): Promise<void> {
  const created = await guardedWrite(file, () => ensureDirectory(fs, dir))
  try {
    await ensureGitignore(fs, paths)
    await writeFileAtomic(fs, file, text)
  } catch (error) {
    await removeCreatedDirectories(fs, created)
    throw error
  }
}
