// A comparable picture of a directory tree: every path with its type and, for files, a hash of its
// bytes; for symlinks, where they point. Two equal snapshots mean nothing on disk changed.
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join, relative } from 'node:path'

export type TreeEntry =
  { path: string; type: 'dir' } | { path: string; type: 'file'; size: number; sha256: string } | { path: string; type: 'symlink'; target: string } | { path: string; type: 'other' }

export function snapshotTree(root: string): TreeEntry[] {
  const entries: TreeEntry[] = []
  const visit = (path: string): void => {
    const stats = lstatSync(path)
    const rel = relative(root, path) || '.'
    if (stats.isSymbolicLink()) {
      entries.push({ path: rel, type: 'symlink', target: readlinkSync(path) })
    } else if (stats.isDirectory()) {
      entries.push({ path: rel, type: 'dir' })
      for (const name of readdirSync(path).sort()) visit(join(path, name))
    } else if (stats.isFile()) {
      const bytes = readFileSync(path)
      entries.push({ path: rel, type: 'file', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') })
    } else {
      entries.push({ path: rel, type: 'other' })
    }
  }
  visit(root)
  return entries
}

/** Names of leftover temp files of the atomic writer anywhere in a snapshot. */
export function tempFilesIn(snapshot: readonly TreeEntry[]): string[] {
  return snapshot.filter((e) => /(^|\/)\.[^/]*\.tmp$/.test(e.path)).map((e) => e.path)
}
