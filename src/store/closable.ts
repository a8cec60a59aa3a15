// A store's lifecycle (SPEC §10, ADR 0160): close() is idempotent, and once a store is closed every
// other operation of the contract is refused with an InternalError (a front end that uses a store it
// closed is a defect of digline, never of the input). Each backend wraps itself here, once, so no
// operation can forget the check.
import { InternalError } from '../errors/base.js'
import type { Store } from './contract.js'

/**
 * The store as its callers see it: the backend's own close() runs once (a second call gets the
 * first one's promise); after it, every other method rejects, as every operation of the contract is
 * async. `where` names the store in the refusal, without credentials.
 */
/** close(), and end(): the team store's older name of it, which tests and benchmarks still call. */
const CLOSING = new Set<string | symbol>(['close', 'end'])

export function closable<S extends Store>(backend: S, where: () => string): S {
  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= backend.close()
    return closing
  }
  return new Proxy(backend, {
    get(target, property, receiver) {
      if (CLOSING.has(property)) return close
      const value = Reflect.get(target, property, receiver) as unknown
      if (closing === undefined || typeof value !== 'function' || typeof property !== 'string') return value
      return () => Promise.reject(new InternalError(`${property}() was called on ${where()} after the store was closed; a front end opens one store, uses it, then closes it`))
    },
  })
}
