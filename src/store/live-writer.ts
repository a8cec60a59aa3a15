// Whether a journal leg is still being written: its header names the host and pid of its writer,
// and only a process on this host can be asked whether it is alive.
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'

export interface LegWriter {
  leg: number
  host: string
  pid: number
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  // A killed process nobody has reaped yet (a zombie) still answers signal 0, but writes nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true
  }
}

/** The first writer that is a live process on this host, other than this process. */
export function liveWriterOf(writers: readonly LegWriter[]): LegWriter | undefined {
  const here = hostname()
  return writers.find((w) => w.host === here && w.pid !== process.pid && isAlive(w.pid))
}
