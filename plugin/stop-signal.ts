// Stopping inside a Vitest worker (SPEC §5): SIGINT, SIGTERM, or the main process going away abort
// every suite run of this worker through one signal, so the calls in flight are aborted and no new
// call starts. The worker then exits once its runs have settled (their journals stay resumable).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const STATE = Symbol.for('digline.workerStop')

/** Where a launch's workers leave their pids, inside the launch's directory (a tenant never starts with a dot). */
export function workersDir(launchDir: string): string {
  return join(launchDir, '.workers')
}

/**
 * Names this worker to the main process, which passes a stop on to it before it exits itself: Vitest 5
 * kills its workers outright once the main process is gone, before they could abort their calls.
 */
export function registerWorker(launchDir: string): void {
  const file = join(workersDir(launchDir), String(process.pid))
  if (existsSync(file)) return
  mkdirSync(workersDir(launchDir), { recursive: true })
  writeFileSync(file, '')
}

interface WorkerStop {
  controller: AbortController
  active: Set<Promise<unknown>>
}

type WithState = typeof globalThis & { [STATE]?: WorkerStop }

/** Exit codes a process ended by these signals would have had. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const

function state(): WorkerStop {
  const g = globalThis as WithState
  if (g[STATE] !== undefined) return g[STATE]
  const s: WorkerStop = { controller: new AbortController(), active: new Set() }
  g[STATE] = s
  const stop = (why: string, exitCode: number) => {
    const idle = s.active.size === 0
    if (!s.controller.signal.aborted) s.controller.abort(why)
    // Vitest ends idle workers with SIGTERM: then behave as if there were no handler.
    if (idle) process.exit(exitCode)
    const settled = Promise.allSettled([...s.active])
    const limit = new Promise((r) => setTimeout(r, 2000))
    void Promise.race([settled, limit]).then(() => process.exit(exitCode))
  }
  for (const [signal, code] of Object.entries(SIGNAL_EXIT)) process.on(signal, () => stop(`${signal} received`, code))
  // A worker forked with an IPC channel loses it when the main process ends (it may have been the only one signalled).
  if (process.send !== undefined) process.once('disconnect', () => stop('the Vitest main process ended', SIGNAL_EXIT.SIGTERM))
  return s
}

/** The worker-wide stop signal; also tracks `run` so the worker waits for it after a stop. */
export function workerStopSignal(): AbortSignal {
  return state().controller.signal
}

export function trackRun(run: Promise<unknown>): void {
  const s = state()
  const settled = run.then(
    () => undefined,
    () => undefined,
  )
  s.active.add(settled)
  void settled.then(() => s.active.delete(settled))
}
