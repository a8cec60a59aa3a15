import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Whether git could find a repository from `cwd`: a `.git` (directory or file) in it or above it, or
 * GIT_DIR set. Without one, `git rev-parse` can only fail, so it is not spawned (ADR 0405).
 */
export function mayBeInGit(cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.GIT_DIR ?? '') !== '') return true
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true
    if (dirname(dir) === dir) return false
  }
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) => (error === null ? resolve(stdout) : reject(error)))
  })
}

/**
 * `git rev-parse HEAD`, with `-dirty` when the work tree has changes; undefined outside git. Both
 * commands run at once and off the event loop, while the rest of the launch is prepared.
 */
export async function gitCommit(cwd: string): Promise<string | undefined> {
  if (!mayBeInGit(cwd)) return undefined
  const [head, status] = await Promise.allSettled([git(cwd, ['rev-parse', 'HEAD']), git(cwd, ['status', '--porcelain', '--untracked-files=no'])])
  if (head.status === 'rejected' || status.status === 'rejected') return undefined
  const commit = head.value.trim()
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined
  return status.value.trim() === '' ? commit : `${commit}-dirty`
}
