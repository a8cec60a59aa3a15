// A value as messages and reasons show it: JSON, cut to about `max` characters.

export function preview(value: unknown, max = 80): string {
  let text: string
  try {
    text = typeof value === 'function' ? `a function${value.name ? ` (${value.name})` : ''}` : (JSON.stringify(value) ?? String(value))
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
