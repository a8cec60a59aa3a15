// SPEC §4: one checker decides what plain JSON data is, reports the first offence with its path, and
// canonicalJson refuses anything else instead of hashing a Map as {} or NaN as null.
import { describe, expect, it } from 'vitest'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { canonicalJson, casesDigest } from '../../../src/suite/hashing.js'
import { describeNotPlain, findNotPlain, NotPlainDataError, readablePath } from '../../../src/suite/plain-data.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('findNotPlain', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['strings, booleans, finite numbers', ['a', true, false, 0, -1.5, 1e300]],
    ['nested objects and arrays', { a: [{ b: { c: [1, [2]] } }], 'odd key': null }],
    ['an object without a prototype', Object.assign(Object.create(null) as object, { a: 1 })],
    ['an undefined object member (JSON leaves it out, and reading gives undefined again)', { a: undefined, b: 1 }],
    [
      'a shared reference that is not a cycle',
      (() => {
        const shared = { s: 1 }
        return { a: shared, b: shared }
      })(),
    ],
  ])('accepts %s', (_label, value) => {
    expect(findNotPlain(value)).toBeUndefined()
  })

  const cyclic: Record<string, unknown> = { a: { b: [] as unknown[] } }
  ;(cyclic.a as { b: unknown[] }).b.push(cyclic.a)
  // eslint-disable-next-line no-sparse-arrays -- a hole is what is being refused
  const sparse = [1, , 3]
  const namedArray = Object.assign([1, 2], { extra: true })
  // As many own keys as its length: the named property is named before the hole, as a sparse array's keys list it.
  // eslint-disable-next-line no-sparse-arrays -- a hole beside a named property is what is being refused
  const holeAndName = Object.assign([1, , 3], { extra: true })
  // A cycle reached after a sibling subtree was walked: the way back names where the walk is now.
  const laterCycle: Record<string, unknown> = { a: { x: [1, { y: 2 }] }, b: { c: {} } }
  ;(laterCycle.b as Record<string, unknown>).c = { back: laterCycle.b }
  it.each<[string, unknown, (string | number)[], RegExp]>([
    ['a Map', { when: new Map([['a', 1]]) }, ['when'], /^a Map$/],
    ['a Set', [new Set([1])], [0], /^a Set$/],
    ['a RegExp', { r: /x/ }, ['r'], /^a RegExp$/],
    ['a Date', { d: new Date(0) }, ['d'], /^a Date$/],
    ['a BigInt', { n: 10n }, ['n'], /^the BigInt 10n$/],
    ['a function', { f: function compute() {} }, ['f'], /^a function \(compute\)$/],
    ['undefined inside an array', [1, undefined], [1], /^undefined$/],
    ['NaN', { x: [NaN] }, ['x', 0], /^NaN$/],
    ['Infinity', { x: Infinity }, ['x'], /^Infinity$/],
    ['-Infinity', { x: -Infinity }, ['x'], /^-Infinity$/],
    ['a symbol', { s: Symbol('k') }, ['s'], /^a symbol/],
    ['a symbol key', { o: { [Symbol('k')]: 1 } }, ['o'], /symbol key/],
    ['a cycle', cyclic, ['a', 'b', 0], /^a cycle back to a$/],
    ['a class instance', { p: new Point(1, 2) }, ['p'], /^an instance of class Point$/],
    ['a typed array', { t: new Uint8Array(2) }, ['t'], /^a Uint8Array$/],
    ['a sparse array', sparse, [1], /hole/],
    ['an array with a named property', namedArray, [], /named property "extra"/],
    ['an array with a hole and a named property', holeAndName, [], /named property "extra"/],
    ['a cycle after a sibling subtree', laterCycle, ['b', 'c', 'back'], /^a cycle back to b$/],
    ['NaN after nested siblings', { a: [{ b: [1, 2] }, { c: 'x' }], d: [1, [2, NaN]] }, ['d', 1, 1], /^NaN$/],
    ['a boxed string', { s: new String('x') }, ['s'], /class String/],
  ])('refuses %s, naming its path', (_label, value, path, what) => {
    const offence = findNotPlain(value, [])
    expect(offence?.path).toEqual(path)
    expect(offence?.what).toMatch(what)
  })

  it('reports the first offence in document order, under the root the caller names', () => {
    const offence = findNotPlain({ a: 1, b: [{ when: new Date(0) }], c: new Map() }, ['cases', 3, 'input'])!
    expect(offence.path).toEqual(['cases', 3, 'input', 'b', 0, 'when'])
    expect(describeNotPlain(offence)).toBe('cases[3].input.b[0].when is a Date, which JSON cannot represent faithfully (use an ISO-8601 string (date.toISOString()))')
  })

  it('refuses undefined itself unless the caller allows it (an absent value)', () => {
    expect(findNotPlain(undefined, ['output'])).toMatchObject({ path: ['output'], what: 'undefined' })
    expect(findNotPlain(undefined, ['output'], { allowUndefinedRoot: true })).toBeUndefined()
  })

  it('writes paths as a reader does', () => {
    expect(readablePath(['cases', 3, 'input', 'when'])).toBe('cases[3].input.when')
    expect(readablePath(['metadata', 'a b', 0])).toBe('metadata["a b"][0]')
    expect(readablePath([])).toBe('(the value itself)')
  })
})

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps an own "__proto__" key', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}')
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}')
  })

  it.each<[string, unknown]>([
    ['a Map', new Map([['a', 1]])],
    ['a Set', new Set([1])],
    ['a Date', new Date(0)],
    ['a RegExp', /x/],
    ['a BigInt', { n: 1n }],
    ['NaN', [NaN]],
    ['a function member', { f: () => 1 }],
    ['undefined in an array', [undefined]],
  ])('refuses %s instead of hashing it as {} or null', (_label, value) => {
    expect(() => canonicalJson(value)).toThrow(NotPlainDataError)
  })

  it('two case sets that differ only inside a Map no longer share a digest: both are refused', () => {
    const digest = (when: Map<string, number>) => casesDigest([{ id: 'a', input: { when } }])
    expect(() => digest(new Map([['x', 1]]))).toThrow(/cases|input\.when|a Map/)
  })
})

describe('resolveSuite refuses data that is not plain, by name and path, before any call', () => {
  const base: SuiteDefinition = { name: 's', cases: [{ id: 'a', input: 1, expected: 1 }], target: () => 1, scorers: [() => true] }
  const refusal = (definition: SuiteDefinition): InvalidSuiteError => {
    try {
      resolveSuite(definition)
    } catch (error) {
      if (error instanceof InvalidSuiteError) return error
      throw error
    }
    throw new Error('not refused')
  }

  it.each<[string, Partial<SuiteDefinition>, (string | number)[], string]>([
    [
      'a Map in a case input',
      {
        cases: [
          { id: 'a', input: 1 },
          { id: 'b', input: 2 },
          { id: 'c', input: 3 },
          { id: 'd', input: { when: new Map() } },
        ],
      },
      ['cases', 3, 'input', 'when'],
      'cases[3].input.when is a Map',
    ],
    ['a Date as expected', { cases: [{ id: 'a', input: 1, expected: new Date(0) }] }, ['cases', 0, 'expected'], 'cases[0].expected is a Date'],
    ['a BigInt in case metadata', { cases: [{ id: 'a', input: 1, metadata: { n: 5n } }] }, ['cases', 0, 'metadata', 'n'], 'cases[0].metadata.n is the BigInt 5n'],
    ['NaN in the target config', { target: { config: { temperature: NaN }, ask: () => ({ output: 1 }) } }, ['target', 'config', 'temperature'], 'target.config.temperature is NaN'],
    [
      'a RegExp in a scorer config',
      { scorers: [{ name: 'r', config: { pattern: /x/ }, score: () => true }] },
      ['scorers', 0, 'config', 'pattern'],
      'scorers[0].config.pattern is a RegExp',
    ],
    ['a Set in the suite metadata', { metadata: { tags: new Set(['a']) } }, ['metadata', 'tags'], 'metadata.tags is a Set'],
    ['undefined inside an input array', { cases: [{ id: 'a', input: [1, undefined] }] }, ['cases', 0, 'input', 1], 'cases[0].input[1] is undefined'],
  ])('%s', (_label, change, path, words) => {
    const error = refusal({ ...base, ...change })
    expect(error.path).toEqual(path)
    expect(error.message).toContain(words)
    expect(error.message).toContain('suite "s" was refused')
  })

  it('an absent input or expected value is not an offence', () => {
    expect(() => resolveSuite({ ...base, cases: [{ id: 'a', input: undefined, expected: undefined }] })).not.toThrow()
  })
})
