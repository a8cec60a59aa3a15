// A zod issue as a sentence a user can act on: what the field must be, what it was, and where.
//   samples must be a whole number from 1 to 1000 (got 0) at suite.samples
import type { z } from 'zod'
import { kindOf, preview } from './preview.js'

type Issue = z.core.$ZodIssue
type Path = (string | number)[]

export interface IssueSentence {
  /** The issue's path, as the refusal's `path`. */
  path: Path
  /** "suite.cases[2].id" — the root, then the path. */
  where: string
  sentence: string
}

/**
 * The first issue of `error` as a sentence; `schema` (when given) lets it say a field's whole rule.
 * `quote: false` names only the kind of the value found (an answer that is not recorded is never quoted).
 */
export function describeZodError(error: z.ZodError, input: unknown, root: string, schema?: z.ZodType, quote = true): IssueSentence {
  return describeIssue(error.issues[0]!, input, root, schema, quote)
}

export function describeIssue(issue: Issue, input: unknown, root: string, schema?: z.ZodType, quote = true): IssueSentence {
  const path = issue.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
  // Unquoted, a key is named only when the schema declares it: a key the value chose (a record's, an unknown one) is the value's.
  const declared = quote ? path.map(() => true) : declaredSegments(schema, path)
  const where = `${root}${path.map((p, i) => (typeof p === 'number' ? `[${p}]` : declared[i] ? `.${p}` : '[…]')).join('')}`
  const last = path.length - 1 - [...path].reverse().findIndex((p) => typeof p === 'string')
  const field = last === path.length ? root : declared[last] ? String(path[last]) : 'a value'
  const value = valueAt(input, path)
  const found = !value.found ? 'nothing' : quote ? preview(value.value, 60) : kindOf(value.value)
  const rule = requirement(issue, schema === undefined ? undefined : schemaAt(schema, path), quote)
  const sentence = issue.code === 'unrecognized_keys' ? `${field} ${rule} at ${where}` : `${field} ${rule} (got ${found}) at ${where}`
  return { path, where, sentence }
}

/** For each segment of `path`, whether the schema declares it (an index, or a key of an object's shape). */
function declaredSegments(schema: z.ZodType | undefined, path: Path): boolean[] {
  let current: z.ZodType | undefined = schema === undefined ? undefined : unwrap(schema)
  return path.map((key) => {
    const def = current?._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType } | undefined
    const declared = typeof key === 'number' || (def?.type === 'object' && typeof key === 'string' && def.shape !== undefined && Object.hasOwn(def.shape, key))
    const next =
      def?.type === 'object' && typeof key === 'string'
        ? def.shape?.[key]
        : def?.type === 'array' && typeof key === 'number'
          ? def.element
          : def?.type === 'record'
            ? def.valueType
            : undefined
    current = next === undefined ? undefined : unwrap(next)
    return declared
  })
}

function requirement(issue: Issue, schema: z.ZodType | undefined, quote = true): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return `must be ${numberRule(schema) ?? 'a whole number'}`
      return `must be ${numberRule(schema) ?? article(issue.expected)}`
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small'
      const bound = small ? issue.minimum : issue.maximum
      if (issue.origin === 'number' && issue.inclusive !== false) return `must be ${numberRule(schema) ?? `a number ${small ? '≥' : '≤'} ${String(bound)}`}`
      if (issue.origin === 'number') return `must be a number ${small ? '>' : '<'} ${String(bound)}`
      const unit = issue.origin === 'array' || issue.origin === 'set' ? 'item' : issue.origin === 'string' ? 'character' : 'entry'
      const count = Number(bound) + (issue.inclusive === false ? (small ? 1 : -1) : 0)
      return `must have ${small ? 'at least' : 'at most'} ${count} ${unit}${count === 1 ? '' : 's'}`
    }
    case 'unrecognized_keys':
      if (!quote) return `has ${issue.keys.length === 1 ? 'an unknown key' : `${issue.keys.length} unknown keys`} (not quoted, as answers are not recorded)`
      return `has ${issue.keys.length === 1 ? 'an unknown key' : 'unknown keys'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${preview(issue.values[0])}` : `must be one of ${issue.values.map((v) => preview(v)).join(', ')}`
    case 'invalid_union': {
      // a branch's own wording (a custom message) says what the field must be better than "Invalid input"
      const custom = issue.errors.flat().find((inner) => inner.code === 'custom' && inner.path.length === 0)
      return custom?.message ?? 'does not have any of the accepted shapes'
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`
    case 'invalid_format':
      return `must be a valid ${issue.format}`
    default:
      return issue.message.startsWith('must ') || issue.message.startsWith('has ') ? issue.message : `is invalid: ${issue.message}`
  }
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`
}

/** "a whole number from 1 to 1000", "a number ≥ 0" — the whole rule of a number schema, when known. */
function numberRule(schema: z.ZodType | undefined): string | undefined {
  const number = schema as (z.ZodType & { minValue?: number | null; maxValue?: number | null; isInt?: boolean }) | undefined
  if (number?._zod.def.type !== 'number') return undefined
  const bounded = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER
  const kind = number.isInt === true ? 'a whole number' : 'a number'
  const min = bounded(number.minValue) ? number.minValue : undefined
  const max = bounded(number.maxValue) ? number.maxValue : undefined
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`
  if (min !== undefined) return `${kind} ≥ ${min}`
  if (max !== undefined) return `${kind} ≤ ${max}`
  return kind
}

/** The schema that validates the value at `path`, through objects, arrays, records and wrappers. */
function schemaAt(schema: z.ZodType, path: Path): z.ZodType | undefined {
  let current: z.ZodType | undefined = unwrap(schema)
  for (const key of path) {
    if (current === undefined) return undefined
    current = unionBranch(current, (d) => d.type === 'object' && typeof key === 'string' && d.shape !== undefined && Object.hasOwn(d.shape, key))
    const def = current._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType }
    if (def.type === 'object' && typeof key === 'string') current = def.shape?.[key]
    else if (def.type === 'array' && typeof key === 'number') current = def.element
    else if (def.type === 'record') current = def.valueType
    else return undefined
    current = current === undefined ? undefined : unwrap(current)
  }
  // A count or { min, max } (samples): a number found is held to the number branch's rule.
  return current === undefined ? undefined : unionBranch(current, (d) => d.type === 'number')
}

/** The branch of a union that `fits`, or the schema itself when it is no union or no branch fits. */
function unionBranch(schema: z.ZodType, fits: (def: { type: string; shape?: Record<string, z.ZodType> }) => boolean): z.ZodType {
  const def = schema._zod.def as { type: string; options?: z.ZodType[] }
  if (def.type !== 'union' || def.options === undefined) return schema
  return def.options.map(unwrap).find((o) => fits(o._zod.def as { type: string; shape?: Record<string, z.ZodType> })) ?? schema
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType }
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType !== undefined) current = def.innerType
    else return current
  }
}

function valueAt(input: unknown, path: Path): { found: boolean; value?: unknown } {
  let current = input
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return { found: false }
    current = (current as Record<string | number, unknown>)[key]
  }
  return { found: current !== undefined, value: current }
}
