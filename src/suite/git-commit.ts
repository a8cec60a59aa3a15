import { execFileSync } from 'node:child_process'

/** `git rev-parse HEAD`, with `-dirty` when the work tree has changes; undefined outside git. */
export function gitCommit(cwd: string): string | undefined {
  try {
    const opts = { cwd, encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'] }
    const head = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim()
    if (!/^[0-9a-f]{40,64}$/.test(head)) return undefined
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], opts)
    return status.trim() === '' ? head : `${head}-dirty`
  } catch {
    return undefined
  }
}
