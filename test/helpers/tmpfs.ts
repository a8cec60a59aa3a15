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
    remount: (options) => remountWhenFree(dir, options),
    unmount() {
      // lazily when something still holds a file open in it (a test that failed half-way)
      if (mounted) execFileSync('umount', ['-l', dir])
      mounted = false
      rmSync(base, { recursive: true, force: true })
    },
  }
}

/**
 * `mount -o remount,ro` fails with "mount point is busy" while a process still has a file open for
 * writing there — a killed run's worker that is still exiting — so it is tried again for a while.
 */
function remountWhenFree(dir: string, options: string, waitMs = 15_000): void {
  const until = Date.now() + waitMs
  for (;;) {
    try {
      execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' })
      return
    } catch (error) {
      const busy = /busy/i.test(String((error as { stderr?: unknown }).stderr ?? ''))
      if (!busy || Date.now() > until) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
    }
  }
}
