// The one factory of stores (SPEC §2, §10): the `store` option, or DIGLINE_STORE over it, names the
// backend. A directory path opens the embedded file store; a `postgres://` or `postgresql://` URL
// opens the team store on PostgreSQL (docs/team-store.md). Every front end gets its store here.
import { storeTarget, type StoreTarget } from './store-locator.js'
import type { Store } from './contract.js'
import { FileResultStore } from './file/store.js'
import { DeferredStore } from './deferred-store.js'

export { DEFAULT_STORE, describeStore, storeLocator, storeTarget, type StoreTarget } from './store-locator.js'

export interface OpenStoreOptions {
  /** A store locator (see storeLocator): an absolute directory or a URL. */
  store: string
  /** Where the store says what it recovered by itself (default: stderr). */
  say?: (line: string) => void
}

/** What a locator names, refused by name when it is neither a directory nor a postgres:// URL. Opens nothing. */
export function assertStoreAvailable(locator: string): StoreTarget {
  return storeTarget(locator)
}

/**
 * Opens the store a locator names, or refuses by name. The team store's code (and `pg`) is imported
 * and connects on its first use, so opening stays synchronous and opens no connection yet.
 */
export function openStore(options: OpenStoreOptions): Store {
  const target = storeTarget(options.store)
  if (target.kind === 'postgres') return new DeferredStore(() => import('./postgres/store.js').then(({ PostgresStore }) => new PostgresStore({ url: target.url })))
  return new FileResultStore(options.say === undefined ? { root: target.root } : { root: target.root, say: options.say })
}
