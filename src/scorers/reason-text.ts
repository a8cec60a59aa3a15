// What a built-in scorer's reason may say about a value: the value itself only when the run records
// answers (SPEC §7); otherwise only its kind, so no answer, input or expected value is written.

/** A value as a reason shows it: JSON, cut to about `max` characters. */
export function preview(value: unknown, max = 80): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** "a string", "a number", "an array", "an object", "null": what a value is, and nothing of it. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'undefined' ? 'undefined' : type === 'object' ? 'an object' : `a ${type}`
}

/** The value quoted when `recorded`, else `fallback` (a description that quotes nothing). */
export function quoteIf(recorded: boolean | undefined, value: unknown, fallback: string, max?: number): string {
  return recorded === true ? preview(value, max) : fallback
}
