// The launch-wide in-flight cap for `digline/models` adapters: the plugin starts one slot server in
// Vitest's main process, hands its socket to every worker through the environment, and prints what
// each provider pool saw when the run ends (calls, attempts, retries, the peak in flight).
import type { Reporter, Vitest } from 'vitest/node'
import { describePool, type SlotBook } from '../src/models/slot-book.js'
import { SLOTS_ENV, startSlotServer, type SlotServer } from '../src/models/slot-server.js'

export async function startModelSlots(vitest: Vitest): Promise<void> {
  let server: SlotServer
  try {
    server = startSlotServer()
    await server.ready
  } catch (error) {
    // Never a reason to stop a launch: the adapters then cap per process.
    process.stderr.write(`digline: the in-flight slot server could not start (${error instanceof Error ? error.message : String(error)}); calls to models are capped per worker\n`)
    return
  }
  // Workers are started after configureVitest, with the main process's environment.
  process.env[SLOTS_ENV] = server.path
  vitest.onClose(() => server.close())
  vitest.config.reporters.push(new ModelSlotsReporter(server.book))
}

class ModelSlotsReporter implements Reporter {
  constructor(private readonly book: SlotBook) {}

  onTestRunEnd(): void {
    for (const pool of this.book.summary()) if (pool.attempts > 0) process.stderr.write(`digline models: ${describePool(pool)}\n`)
    this.book.resetCounts()
  }
}
