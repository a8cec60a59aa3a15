// Where the store is, from the `store` option and the environment, and which backend that names,
// without importing any backend (ADR 0407): the plugin's options are checked in Vitest's main
// process, which opens no store.
import { isAbsolute, resolve } from 'node:path'
import { InvalidOptionsError } from '../suite/errors.js'
import { describeServer } from './server-name.js'

export const DEFAULT_STORE = '.digline'

export type StoreTarget = { kind: 'file'; root: string } | { kind: 'postgres'; url: string }

const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i

/**
 * Where the store is, from the `store` option and the environment: DIGLINE_STORE wins over the
 * option, the option over `.digline`. A path is resolved against `root` (the Vitest root); a URL is
 * kept as it is.
 */
export function storeLocator(option: string | undefined, root: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.DIGLINE_STORE !== undefined && env.DIGLINE_STORE !== '' ? env.DIGLINE_STORE : (option ?? DEFAULT_STORE)
  if (URL_SCHEME.test(chosen) || isAbsolute(chosen)) return chosen
  return resolve(root, chosen)
}

/** What a store locator names, without opening anything. Credentials in a URL never reach a message. */
export function storeTarget(locator: string): StoreTarget {
  const scheme = URL_SCHEME.exec(locator)?.[1]?.toLowerCase()
  if (scheme === undefined) return { kind: 'file', root: locator }
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url: locator }
  throw new InvalidOptionsError(
    `the store ${scheme}://… was refused: a store is a directory (the file store) or a postgres:// URL (the team store)`,
    'Set the digline() option `store` (or DIGLINE_STORE) to a directory such as `.digline`.',
    ['store'],
  )
}

/** The store as messages name it: the directory, or the team store's URL without user, password or query. */
export function describeStore(locator: string): string {
  const target = storeTarget(locator)
  return target.kind === 'file' ? target.root : `the team store ${describeServer(target.url)}`
}
