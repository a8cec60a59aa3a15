// zod loaded when a schema is first used, not when a module that declares one is imported (ADR 0430).
// A valid suite, run and document never need it: hand-written checks say yes, zod words a refusal.
import { createRequire } from 'node:module'
import type * as Zod from 'zod'

let loaded: typeof Zod.z | undefined

/**
 * zod itself, loaded by the first call. Synchronous, so it is zod's CommonJS build: a schema of this
 * module is never `instanceof` a class of an `import('zod')`, and nothing of digline asks that.
 */
export function zodNow(): typeof Zod.z {
  return (loaded ??= (createRequire(import.meta.url)('zod') as typeof Zod).z)
}

/** Whether any schema has been built (zod loaded) in this process. */
export function zodLoaded(): boolean {
  return loaded !== undefined
}

/** A schema built by its first use: every read of the returned object reaches the schema `build` returns. */
export function lazySchema<T extends object>(build: (z: typeof Zod.z) => T): T {
  let built: T | undefined
  const real = (): T => (built ??= build(zodNow()))
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key) as unknown,
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(real(), key)
      return found === undefined ? undefined : { ...found, configurable: true }
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    set: (_, key, value) => Reflect.set(real(), key, value),
  })
}
