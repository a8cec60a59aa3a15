import { RunNotFoundError } from '../../store/errors.js'
import type { Store } from '../../store/contract.js'

/** `--run KEY|latest` as a key: latest is the newest readable run of the suite. */
export async function resolveRunKey(store: Store, tenant: string, suite: string, run: string): Promise<string> {
  if (run !== 'latest') return run
  const key = await store.latestKey(tenant, suite)
  if (key === undefined)
    throw new RunNotFoundError(`suite ${suite} of tenant ${tenant} has no run, so --run latest names nothing`, 'Run the suite with `vitest run` first.', ['--run'])
  return key
}
