// What a thrown value is to digline. Its errors are recognised by what they are, never by their name
// alone: an own `digline` brand (a data property, so it survives Vitest's worker → main
// serialization) AND a name that is an own key of one of the catalogue's tables. A user's own
// `class UsageError extends Error` is neither. src/exit-codes.ts turns what this recognises into
// exit codes.
import { isDiglineError, type DiglineError } from './base.js'
import { ALL_ERRORS, FAILURES, INTERNAL_ERRORS, REFUSALS } from './catalogue.js'

export type DiglineErrorKind = 'refusal' | 'failure' | 'internal'

/**
 * What a thrown value is to digline, for real instances and for plain copies that crossed a process
 * boundary alike: the `digline` brand must be an own property and the name an own key of a table.
 */
export function diglineErrorKind(error: unknown): DiglineErrorKind | undefined {
  if (error === null || typeof error !== 'object') return undefined
  if (!Object.hasOwn(error, 'digline') || (error as { digline?: unknown }).digline !== true) return undefined
  const name = (error as { name?: unknown }).name
  if (typeof name !== 'string') return undefined
  if (Object.hasOwn(REFUSALS, name)) return 'refusal'
  if (Object.hasOwn(FAILURES, name)) return 'failure'
  if (Object.hasOwn(INTERNAL_ERRORS, name)) return 'internal'
  return undefined
}

export function isRefusal(error: unknown): boolean {
  return diglineErrorKind(error) === 'refusal'
}

/**
 * Rebuilds an error that crossed a process boundary as plain data into its real class, so
 * `instanceof` and `exitCode` hold again. Anything that is not recognisably digline's (no brand, or
 * a name no table owns) comes back as a plain Error: a user's `UsageError` stays the user's.
 */
export function reviveError(data: unknown): Error {
  if (data instanceof Error && (isDiglineError(data) || diglineErrorKind(data) === undefined)) return data
  const fields = (data !== null && typeof data === 'object' ? data : {}) as Partial<Record<string, unknown>>
  const message = typeof fields.message === 'string' ? fields.message : String(data)
  const kind = diglineErrorKind(data)
  if (kind === undefined) {
    const plain = new Error(message)
    if (typeof fields.name === 'string') plain.name = fields.name
    if (typeof fields.stack === 'string') plain.stack = fields.stack
    return plain
  }
  const name = fields.name as string
  const entry = ALL_ERRORS[name]!
  // built without its constructor: the classes' constructors differ, the fields do not
  const revived = Object.create(entry.error.prototype as object) as DiglineError
  const next = typeof fields.next === 'string' ? fields.next : entry.next
  const path = Array.isArray(fields.path) ? fields.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number') : []
  const own = { name, message, next, path, digline: true, exitCode: kind === 'refusal' ? 64 : 2 }
  for (const [key, value] of Object.entries(own)) Object.defineProperty(revived, key, { value, enumerable: key !== 'message', writable: false, configurable: true })
  if (typeof fields.errno === 'string') Object.defineProperty(revived, 'errno', { value: fields.errno, enumerable: true })
  Object.defineProperty(revived, 'stack', { value: typeof fields.stack === 'string' ? fields.stack : `${name}: ${message}`, writable: true, configurable: true })
  return revived
}
