// The removal-record check every front end makes before it resumes, promotes or re-judges a key.
import { runRemovedError, supportsRemovalRecords } from '../store/removal.js'

/** Refuses (RunRemovedError) a key a delete removed; a store that keeps no records has nothing to say. */
export async function assertNotRemoved(store: unknown, tenant: string, suite: string, key: string, doing: string): Promise<void> {
  if (!supportsRemovalRecords(store)) return
  const notice = await store.removalOf(tenant, suite, key)
  if (notice !== undefined) throw runRemovedError({ tenant, suite, key }, notice, doing)
}
