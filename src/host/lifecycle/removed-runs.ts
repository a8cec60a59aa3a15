// The removal-record check every front end makes before it resumes, promotes or re-judges a key.
import type { Store } from '../../store/contract.js'
import { runRemovedError } from '../../store/removal.js'

/** Refuses (RunRemovedError) a key a delete removed. */
export async function assertNotRemoved(store: Pick<Store, 'removalOf'>, tenant: string, suite: string, key: string, doing: string): Promise<void> {
  const notice = await store.removalOf(tenant, suite, key)
  if (notice !== undefined) throw runRemovedError({ tenant, suite, key }, notice, doing)
}
