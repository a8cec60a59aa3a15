// User onCase hooks. A hook file (listed in the plugin's `hooks` option, loaded as a Vitest setup
// file in every worker) calls onCase(fn); the plugin's own setup file clears the list first, so a
// worker that runs several files never registers a hook twice.
import type { OnCase } from '../src/document/case-progress.js'

const REGISTRY = Symbol.for('digline.caseHooks')
type WithRegistry = typeof globalThis & { [REGISTRY]?: OnCase[] }

function registry(): OnCase[] {
  const g = globalThis as WithRegistry
  g[REGISTRY] ??= []
  return g[REGISTRY]
}

/** Registers a hook called once per finished case, after its journal record is durable. A hook that throws stops the suite at that case. */
export function onCase(hook: OnCase): void {
  if (typeof hook !== 'function') throw new TypeError('onCase() takes a function (progress) => void | Promise<void>')
  registry().push(hook)
}

export function registeredCaseHooks(): readonly OnCase[] {
  return [...registry()]
}

export function clearCaseHooks(): void {
  registry().length = 0
}
