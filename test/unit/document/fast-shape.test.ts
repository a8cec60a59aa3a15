// The hand-written check says yes exactly when zod would accept a value and give it back unchanged
// (same keys, same order, nothing stripped), for thousands of seeded random values: valid ones in
// every optional combination and range edge, and each mutated once somewhere inside.
import { readFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { baselineDocumentSchema } from '../../../src/document/baseline.js'
import { fastAggregates, fastBaselineDocument, fastRunDocument, fastRunHead, fastRunHeader, isCanonicalCaseResult } from '../../../src/document/fast-shape.js'
import { aggregatesSchema, caseResultSchema, runDocumentSchema, runHeaderSchema, type CaseResult } from '../../../src/document/schema.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { makeRun } from '../../helpers/make-run.js'
import { Gen, mutate, sameBelowTop, sameInOrder, type Json } from '../../helpers/shape-fuzz.js'

function checkCase(value: unknown): void {
  const zod = caseResultSchema.safeParse(value)
  const unchanged = zod.success && sameInOrder(zod.data, value)
  if (isCanonicalCaseResult(value) !== unchanged) expect.fail(`fast ${!unchanged} but zod ${unchanged ? 'keeps' : 'refuses or changes'} ${inspect(value, { depth: 20 })}`)
}

function checkDocument(value: Json, schema: typeof runDocumentSchema | typeof baselineDocumentSchema, fast: (v: unknown) => unknown): void {
  const zod = schema.safeParse(value)
  const result = fast(value)
  const unchanged = zod.success && sameBelowTop(zod.data, value)
  if ((result !== undefined) !== unchanged) expect.fail(`fast ${!unchanged} but zod ${unchanged ? 'keeps' : 'refuses or changes'} ${inspect(value, { depth: 20 })}`)
  if (result !== undefined && zod.success) {
    expect(sameInOrder(result, zod.data)).toBe(true)
    for (const key of Object.keys(value)) expect((result as Json)[key]).toBe(value[key])
  }
}

describe('isCanonicalCaseResult', () => {
  it('accepts every valid case result zod gives back unchanged, and the value is the one passed in', () => {
    const g = new Gen(seededRandom(17))
    for (let i = 0; i < 3000; i++) {
      const value = g.caseResult()
      for (const v of [value, JSON.parse(JSON.stringify(value)) as Json]) {
        expect(isCanonicalCaseResult(v), JSON.stringify(v)).toBe(true)
        expect(caseResultSchema.parse(v)).toStrictEqual(v)
      }
    }
  })

  it('says yes exactly when zod accepts a mutated case result unchanged', () => {
    const g = new Gen(seededRandom(42))
    let refused = 0
    let stripped = 0
    for (let i = 0; i < 8000; i++) {
      const value = mutate(g, g.caseResult())
      const zod = caseResultSchema.safeParse(value)
      if (!zod.success) refused++
      else if (!sameInOrder(zod.data, value)) stripped++
      checkCase(value)
    }
    // The mutations reach both of zod's other outcomes, not only acceptance.
    expect(refused).toBeGreaterThan(2000)
    expect(stripped).toBeGreaterThan(200)
  })

  it.each<[string, unknown]>([
    ['a number beyond the safe integers', { ...caseOf(), passed_samples: 2 ** 53 }],
    ['the largest safe integer', { ...caseOf(), passed_samples: Number.MAX_SAFE_INTEGER }],
    ['NaN as a score', { ...caseOf(), score: NaN }],
    ['an infinite cost', { ...caseOf(), target_cost: Infinity }],
    ['a score of -0', { ...caseOf(), score: -0 }],
    ['an optional key present as undefined', { ...caseOf(), target_cost: undefined }],
    ['a string array', ['a']],
    ['null', null],
    ['an error cause zod does not know', { ...caseOf(), error: { cause: 'judge', message: 'm' } }],
    ['keys in another order', (({ case_id, ...rest }) => ({ ...rest, case_id }))(caseOf())],
  ])('%s', (_name, value) => checkCase(value))
})

function caseOf(): CaseResult {
  return makeRun({ results: 1 }).results[0]!
}

describe('fastRunDocument and fastBaselineDocument', () => {
  it('accept every valid document, in zod top-level order, keeping every value below it', () => {
    const g = new Gen(seededRandom(7))
    for (let i = 0; i < 1000; i++) {
      checkDocument(g.document(), runDocumentSchema, fastRunDocument)
      checkDocument(g.baseline(), baselineDocumentSchema, fastBaselineDocument)
      const doc = JSON.parse(JSON.stringify(g.document())) as Json
      expect(fastRunDocument(doc)).toBeDefined()
    }
  })

  it('say yes exactly when zod accepts a mutated document unchanged', () => {
    const g = new Gen(seededRandom(99))
    let refused = 0
    for (let i = 0; i < 3000; i++) {
      const doc = mutate(g, g.document())
      if (!runDocumentSchema.safeParse(doc).success) refused++
      checkDocument(doc, runDocumentSchema, fastRunDocument)
      checkDocument(mutate(g, g.baseline()), baselineDocumentSchema, fastBaselineDocument)
    }
    expect(refused).toBeGreaterThan(500)
  })

  it('accept the documents digline writes: the example baselines and the test helper runs', () => {
    for (const name of ['triage-priority', 'triage-queue']) {
      const value = JSON.parse(readFileSync(new URL(`../../../examples/triage/.digline/examples/baselines/${name}.json`, import.meta.url), 'utf8')) as Json
      expect(fastBaselineDocument(value)).toStrictEqual(baselineDocumentSchema.parse(value))
      const { promoted_at: _at, promoted_from: _from, ...run } = value
      expect(fastRunDocument(run)).toStrictEqual(runDocumentSchema.parse(run))
    }
    const run = JSON.parse(JSON.stringify(makeRun({ results: 50, reasonLength: 3 }))) as Json
    expect(fastRunDocument(run)).toStrictEqual(runDocumentSchema.parse(run))
  })
})

let headSchema: ReturnType<typeof runHeaderSchema.extend> | undefined

/** What a store reads beside a document (its header, its aggregates) and checks of one it writes (all but the results). */
const parts: {
  name: string
  of: (doc: Json) => Json
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }
  fast: (v: unknown) => unknown
  top: 'any order' | 'as given'
  /** A top-level key zod strips and the hand check may ignore. */
  stripped?: string
}[] = [
  { name: 'fastRunHeader', of: ({ aggregates: _a, results: _r, ...header }) => header, schema: runHeaderSchema, fast: fastRunHeader, top: 'any order' },
  {
    name: 'fastRunHeader of a header read with the aggregates after it',
    of: ({ results: _r, ...head }) => head,
    schema: runHeaderSchema,
    fast: fastRunHeader,
    top: 'any order',
    stripped: 'aggregates',
  },
  { name: 'fastAggregates', of: (doc) => doc.aggregates as Json, schema: aggregatesSchema, fast: fastAggregates, top: 'as given' },
  {
    name: 'fastRunHead',
    of: ({ results: _r, ...head }) => head,
    schema: { safeParse: (v) => (headSchema ??= runHeaderSchema.extend({ aggregates: aggregatesSchema })).safeParse(v) },
    fast: fastRunHead,
    top: 'any order',
  },
]

function checkPart(value: Json, part: (typeof parts)[number]): void {
  const zod = part.schema.safeParse(value)
  const result = part.fast(value)
  const { [part.stripped ?? '']: _stripped, ...kept } = value
  const unchanged = zod.success && (part.top === 'as given' ? sameInOrder(zod.data, value) : sameBelowTop(zod.data as Json, part.stripped === undefined ? value : kept))
  if ((result !== undefined) !== unchanged) expect.fail(`${part.name}: fast ${!unchanged} but zod ${unchanged ? 'keeps' : 'refuses or changes'} ${inspect(value, { depth: 20 })}`)
  if (result !== undefined) {
    expect(sameInOrder(result, zod.data)).toBe(true)
    for (const key of Object.keys(value)) if (key !== part.stripped) expect((result as Json)[key]).toBe(value[key])
  }
}

describe.each(parts)('$name', (part) => {
  it('accepts every valid value, as zod gives it back, keeping every value below the top', () => {
    const g = new Gen(seededRandom(11))
    for (let i = 0; i < 300; i++) {
      const value = part.of(g.document())
      checkPart(value, part)
      expect(part.fast(value)).toBeDefined()
    }
  })

  it('says yes exactly when zod accepts a mutated value unchanged', () => {
    const g = new Gen(seededRandom(23))
    let refused = 0
    for (let i = 0; i < 1200; i++) {
      const value = mutate(g, part.of(g.document()))
      if (!part.schema.safeParse(value).success) refused++
      checkPart(value, part)
    }
    expect(refused).toBeGreaterThan(200)
  })
})
