// What a built-in scorer's reason may say about a value: the value itself only when the run records
// answers (SPEC §7); otherwise only its kind, so no answer, input or expected value is written.

export { kindOf, preview } from '../suite/preview.js'
import { preview } from '../suite/preview.js'

/** The value quoted when `recorded`, else `fallback` (a description that quotes nothing). */
export function quoteIf(recorded: boolean | undefined, value: unknown, fallback: string, max?: number): string {
  return recorded === true ? preview(value, max) : fallback
}
