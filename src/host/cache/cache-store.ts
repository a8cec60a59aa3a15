// Where a launch keeps its response cache (SPEC §7, docs/adr/0151). Asked for (a suite's `cache: true`,
// DIGLINE_CACHE=1), it is the run's own store. Watch mode's default is local: with a team store it
// is the file store under the project root (.digline), so answers nobody asked to share never reach
// a shared table.
import { resolve } from 'node:path'
import type { Store } from '../../store/contract.js'
import { DEFAULT_STORE, openStore, storeTarget } from '../../store/open-store.js'

export function cacheStoreFor(store: Store, storeLocator: string, projectRoot: string, setting: 'asked' | 'watch'): Store {
  if (setting === 'asked' || storeTarget(storeLocator).kind === 'file') return store
  return openStore({ store: localCacheLocator(projectRoot) })
}

/** The file store that keeps watch mode's cache when the runs live in a team store. */
export function localCacheLocator(projectRoot: string): string {
  return resolve(projectRoot, DEFAULT_STORE)
}

/** The local cache beside a team store, when there is one to clean: a delete there removes the run's answers here too. */
export function localCacheBeside(storeLocator: string, projectRoot: string): Store | undefined {
  return storeTarget(storeLocator).kind === 'postgres' ? openStore({ store: localCacheLocator(projectRoot) }) : undefined
}
