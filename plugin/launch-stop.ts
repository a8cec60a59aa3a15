// Stopping in Vitest's main process (SPEC §5): Ctrl-C (SIGINT) or SIGTERM ends the launch with exit 2,
// "could not be judged", not the 130/143 a signal would give. The workers abort their own calls
// (plugin/stop-signal.ts); journaled cases stay resumable. A signal sent to the main process alone is
// passed on to the workers that named themselves, and the main process waits for them before it
// exits: Vitest 5's watchdog kills the workers outright once the main process is gone.
import { readdirSync, readFileSync } from 'node:fs'
import { workersDir } from './stop-signal.js'

const INSTALLED = Symbol.for('digline.launchStop')

type WithFlag = typeof globalThis & { [INSTALLED]?: Set<string> }

/** How long the main process waits for its workers (each gives its runs 2 s to settle). */
const WORKERS_WAIT_MS = 3000

function running(pid: number): boolean {
  try {
    // a worker that exited stays a zombie until this process reaps it, which it cannot while it waits
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function stopWorkers(launchDirs: ReadonlySet<string>, signal: NodeJS.Signals): void {
  const pids: number[] = []
  for (const dir of launchDirs) {
    let names: string[]
    try {
      names = readdirSync(workersDir(dir))
    } catch {
      continue
    }
    for (const name of names) {
      const pid = Number(name)
      if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue
      try {
        process.kill(pid, signal)
        pids.push(pid)
      } catch {
        // gone already
      }
    }
  }
  // Blocking on purpose: Vitest's own handler exits on the next turn of the event loop.
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + WORKERS_WAIT_MS
  while (pids.some(running) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20)
}

export function exitTwoWhenStopped(launchDir: string): void {
  const g = globalThis as WithFlag
  if (g[INSTALLED] !== undefined) {
    g[INSTALLED].add(launchDir)
    return
  }
  const launchDirs = new Set([launchDir])
  g[INSTALLED] = launchDirs
  let stopped = false
  const onStop = (signal: NodeJS.Signals) => {
    if (!stopped) {
      process.stderr.write(`\ndigline: ${signal} received: the calls in flight are aborted and no new call starts; \`digline pending\` names what stays resumable (exit 2)\n`)
      stopWorkers(launchDirs, signal)
    }
    stopped = true
    process.exitCode = 2
    // Vitest's own handler exits right after; when it is not there, exit here.
    setTimeout(() => process.exit(2), 1000).unref()
  }
  process.on('SIGINT', onStop)
  process.on('SIGTERM', onStop)
  process.on('exit', () => {
    if (stopped) process.exitCode = 2
  })
}
