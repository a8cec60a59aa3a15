// Stopping in Vitest's main process (SPEC §5): Ctrl-C (SIGINT) or SIGTERM ends the launch with exit 2,
// "could not be judged", not the 130/143 a signal would give. The workers abort their own calls
// (plugin/stop-signal.ts); journaled cases stay resumable.
const INSTALLED = Symbol.for('digline.launchStop')

type WithFlag = typeof globalThis & { [INSTALLED]?: boolean }

export function exitTwoWhenStopped(): void {
  const g = globalThis as WithFlag
  if (g[INSTALLED] === true) return
  g[INSTALLED] = true
  let stopped = false
  const onStop = (signal: NodeJS.Signals) => {
    if (!stopped)
      process.stderr.write(`\ndigline: ${signal} received: the calls in flight are aborted and no new call starts; \`digline pending\` names what stays resumable (exit 2)\n`)
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
