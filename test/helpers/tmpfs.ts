// A real tmpfs of a given size, mounted for one test file (root only). Mounting is never optional:
// a test that needs a full disk fails when it cannot have one, rather than pass on a disk that is not full.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Tmpfs {
  dir: string
  /** Changes the size of the mounted tmpfs (to fill or free it). */
  resize(size: string): void
  remount(options: string): void
  unmount(): void
}

export function mountTmpfs(size: string, parent = tmpdir()): Tmpfs {
  const base = mkdtempSync(join(parent, 'digline-tmpfs-'))
  chmodSync(base, 0o755)
  const dir = join(base, 'mnt')
  mkdirSync(dir)
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    rmSync(base, { recursive: true, force: true })
    throw new Error(`mounting a ${size} tmpfs at ${dir} failed (these tests need root and mount): ${(error as Error).message}`, { cause: error })
  }
  let mounted = true
  return {
    dir,
    resize: (next) => execFileSync('mount', ['-o', `remount,size=${next}`, dir]),
    remount: (options) => execFileSync('mount', ['-o', `remount,${options}`, dir]),
    unmount() {
      // lazily when something still holds a file open in it (a test that failed half-way)
      if (mounted) execFileSync('umount', ['-l', dir])
      mounted = false
      rmSync(base, { recursive: true, force: true })
    },
  }
}
