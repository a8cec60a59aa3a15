// Plain JSON data: what a hash or a document may hold. One walk finds the first value JSON cannot
// represent faithfully, so it is refused by name and path instead of becoming {} or null.

export type DataPath = readonly (string | number)[]

export interface NotPlain {
  /** Where the value sits, from the root the caller names (zod-style). */
  path: DataPath
  /** What it is, as a sentence fragment: "a Map", "NaN", "a cycle back to cases[0]". */
  what: string
  /** What to use in its place. */
  instead: string
}

export interface PlainDataOptions {
  /** `undefined` as the value itself is allowed (it means "absent"); inside an array it never is. */
  allowUndefinedRoot?: boolean
}

const BUILT_INS: Record<string, string> = {
  Map: 'a plain object, or an array of [key, value] pairs',
  Set: 'an array',
  Date: 'an ISO-8601 string (date.toISOString())',
  RegExp: 'its source as a string',
  Error: 'a plain object with the fields you need, e.g. { message }',
  Promise: 'the value it resolves to (await it)',
  WeakMap: 'a plain object',
  WeakSet: 'an array',
  ArrayBuffer: 'an array of numbers or a base64 string',
  URL: 'its href as a string',
}

/** The first value under `value` that is not plain JSON data, or undefined when all of it is. */
export function findNotPlain(value: unknown, root: DataPath = [], options: PlainDataOptions = {}): NotPlain | undefined {
  if (value === undefined) return options.allowUndefinedRoot === true ? undefined : { path: [...root], what: 'undefined', instead: 'null, or a value' }
  return walk(value, { path: [...root], ancestors: [], ancestorDepths: [] })
}

/**
 * Where the walk is: the path to the value and the objects above it (with the length of the path
 * to each), as stacks it pushes onto and pops. Plain data costs no allocation per value; an offence
 * copies the path, and the walk stops there.
 */
interface Walk {
  path: (string | number)[]
  ancestors: object[]
  ancestorDepths: number[]
}

function found(at: Walk, what: string, instead: string): NotPlain {
  return { path: [...at.path], what, instead }
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/

function walk(value: unknown, at: Walk): NotPlain | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined
    case 'number':
      if (Number.isFinite(value)) return undefined
      return found(at, Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity', 'null, or a string that says what it means')
    case 'bigint':
      return found(at, `the BigInt ${String(value)}n`, 'a number, or a string of its digits')
    case 'symbol':
      return found(at, `a symbol (${String(value)})`, 'a string')
    case 'function':
      return found(at, `a function${value.name ? ` (${value.name})` : ''}`, 'the data it would compute: a function is not data')
    case 'undefined':
      return found(at, 'undefined', 'null, or leave the element out')
  }
  if (value === null) return undefined
  const object = value as object
  const cycle = at.ancestors.indexOf(object)
  if (cycle >= 0) {
    const to = readablePath(at.path.slice(0, at.ancestorDepths[cycle]))
    return found(at, `a cycle back to ${to}`, 'a tree: copy the shared part, or refer to it by an id')
  }
  const kind = classOf(object)
  if (kind !== undefined) return found(at, describeClass(kind), BUILT_INS[kind] ?? (ArrayBuffer.isView(object) ? 'an array of numbers' : 'a plain object with its fields'))
  if (Object.getOwnPropertySymbols(object).some((s) => Object.prototype.propertyIsEnumerable.call(object, s))) {
    return found(at, 'an object with a symbol key', 'string keys only')
  }
  at.ancestors.push(object)
  at.ancestorDepths.push(at.path.length)
  const offence = Array.isArray(object) ? walkArray(object as unknown[], at) : walkObject(object as Record<string, unknown>, at)
  if (offence !== undefined) return offence
  at.ancestors.pop()
  at.ancestorDepths.pop()
  return undefined
}

function walkArray(array: unknown[], at: Walk): NotPlain | undefined {
  // Its own keys are its indices alone when there are as many as its length and no element is a
  // hole; a named property is named before a hole, as the keys list them.
  const keys = Object.keys(array)
  if (keys.length !== array.length) {
    const offence = namedProperty(keys, at)
    if (offence !== undefined) return offence
  }
  for (let i = 0; i < array.length; i++) {
    if (!(i in array)) return namedProperty(keys, at) ?? { path: [...at.path, i], what: 'a hole in a sparse array', instead: 'null, or an array without holes' }
    at.path.push(i)
    const offence = walk(array[i], at)
    if (offence !== undefined) return offence
    at.path.pop()
  }
  return undefined
}

function namedProperty(keys: readonly string[], at: Walk): NotPlain | undefined {
  const extra = keys.find((k) => !ARRAY_INDEX.test(k))
  return extra === undefined ? undefined : found(at, `an array with the named property ${JSON.stringify(extra)}`, 'a plain object, or an array without named properties')
}

function walkObject(object: Record<string, unknown>, at: Walk): NotPlain | undefined {
  for (const key of Object.keys(object)) {
    const member = object[key]
    // JSON leaves an undefined member out, and reading it back gives undefined again: faithful.
    if (member === undefined) continue
    at.path.push(key)
    const offence = walk(member, at)
    if (offence !== undefined) return offence
    at.path.pop()
  }
  return undefined
}

/** The class name of anything that is not a plain object or a plain array. */
function classOf(object: object): string | undefined {
  const proto = Object.getPrototypeOf(object) as object | null
  if (proto === null || proto === Object.prototype) return undefined
  if (Array.isArray(object) && proto === Array.prototype) return undefined
  const name = (proto as { constructor?: { name?: unknown } }).constructor?.name
  return typeof name === 'string' && name !== '' ? name : 'anonymous class'
}

function describeClass(name: string): string {
  if (name in BUILT_INS || /Array$/.test(name) || name === 'Buffer') return `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}`
  return name === 'anonymous class' ? 'an instance of an anonymous class' : `an instance of class ${name}`
}

/** `cases[3].input.when`, `metadata["a b"]`: a path as a reader writes it. */
export function readablePath(path: DataPath): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === '' ? part : `.${part}`
    else out += `[${JSON.stringify(part)}]`
  }
  return out === '' ? '(the value itself)' : out
}

/** "cases[3].input.when is a Map, which JSON cannot represent faithfully (use a plain object, …)". */
export function describeNotPlain(offence: NotPlain): string {
  return `${readablePath(offence.path)} is ${offence.what}, which JSON cannot represent faithfully (use ${offence.instead})`
}

/** Thrown where plain data is a precondition (canonicalJson): reaching it is a defect of the caller. */
export class NotPlainDataError extends TypeError {
  override readonly name = 'NotPlainDataError'
  constructor(readonly offence: NotPlain) {
    super(describeNotPlain(offence))
  }
}

/** The value itself, checked: throws NotPlainDataError at the first offence. */
export function assertPlainData(value: unknown, root: DataPath = [], options: PlainDataOptions = {}): void {
  const offence = findNotPlain(value, root, options)
  if (offence !== undefined) throw new NotPlainDataError(offence)
}
