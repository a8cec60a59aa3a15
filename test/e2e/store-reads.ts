// What `digline show --json` and `digline pending --json` print, read in the test's own process
// through the store (ADR 0460): a test that only reads a result it is not about starts no process
// for it. Each command keeps tests that go through the real CLI (test/cli/**, shards, team-store).
import { resolveRunKey } from '../../src/host/launch/run-key.js'
import { pendingRows, type PendingRow } from '../../src/host/project/pending-rows.js'
import type { Store } from '../../src/store/contract.js'
import { openStore } from '../../src/store/open-store.js'

async function withStore<T>(locator: string, read: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore({ store: locator })
  try {
    return await read(store)
  } finally {
    await store.close()
  }
}

/** The stdout of `digline show --suite SUITE --run RUN --json` against the store LOCATOR, byte for byte. */
export function shownJson(locator: string, suite: string, run = 'latest', tenant = 'acme'): Promise<string> {
  return withStore(locator, async (store) => {
    const key = await resolveRunKey(store, tenant, suite, run)
    return `${JSON.stringify({ key, ...(await store.readRun(tenant, suite, key)) }, null, 2)}\n`
  })
}

/** The rows `digline pending --json` prints under `pending`. */
export function pendingRowsOf(locator: string, tenant = 'acme', suite?: string): Promise<PendingRow[]> {
  return withStore(locator, (store) => pendingRows(store, tenant, suite))
}
