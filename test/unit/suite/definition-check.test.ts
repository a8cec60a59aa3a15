// The hand-written check of a suite definition says yes only where the zod schema accepts (ADR 0430):
// thousands of seeded definitions, valid in every optional field and range edge, each mutated once.
// Where the check says no or cannot tell, resolveSuite asks zod, so a refusal's words do not change.
import { describe, expect, it } from 'vitest'
import { definitionSurelyValid } from '../../../src/suite/definition-check.js'
import { definitionSchema } from '../../../src/suite/resolve-suite.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { Gen } from '../../helpers/shape-fuzz.js'

type Fields = Record<string, unknown>

const fn = (): unknown => 'ok'
const ODD: readonly unknown[] = [
  undefined,
  null,
  0,
  -1,
  0.5,
  1.5,
  1001,
  NaN,
  Infinity,
  -0,
  '',
  'x',
  '!neg',
  '../up',
  'a b',
  'a,b',
  true,
  [],
  [1],
  ['x'],
  {},
  { min: 2, max: 1 },
  { usd: 1 },
  { input: 1, output: 2 },
  { input: -1, output: 2 },
  { x: 1 },
  Object.create(null) as object,
  Object.create({ inherited: 1 }) as object,
  { constructor: 1 },
  { [Symbol('s')]: 1 },
  new Map(),
  fn,
  { ask: fn },
  { name: 'n', score: fn },
  { name: '', score: fn },
  { passRate: 2 },
  { minLabels: 1, minAgreement: 0 },
]

function validDefinition(g: Gen): Fields {
  const cases = Array.from({ length: 1 + g.int(3) }, (_, i) => {
    const c: Fields = { id: g.pick(['a', 'case.1', 'Z_9-x']) + String(i), input: g.pick([1, 'q', null, { q: 1 }]) }
    if (g.chance()) c.expected = g.pick([1, 'a', undefined])
    if (g.chance()) c.metadata = g.pick([{}, { k: 1 }])
    if (g.chance()) c.tags = g.pick([[], ['smoke'], ['a', 'b-c']])
    if (g.chance()) c.cluster = g.pick(['c', 'cluster 1'])
    return c
  })
  const d: Fields = {
    name: g.pick(['s', 'suite.v2', 'A-b_c']),
    cases,
    target: g.chance() ? fn : { ask: fn, ...(g.chance() ? { config: { model: 'm' } } : {}) },
    scorers: g.chance() ? [fn] : [{ name: 'x', score: fn, ...(g.chance() ? { passAt: g.pick([0, 0.5, 1]) } : {}) }, fn],
  }
  const optional: Record<string, () => unknown> = {
    samples: () => g.pick([1, 3, 1000, { min: 1, max: 5 }, { min: 4, max: 4 }]),
    minAgreement: () => g.pick([0, 0.5, 1]),
    thresholds: () => g.pick([{}, { passRate: 0.9 }, { passRate: 1, meanScore: 0 }]),
    tolerances: () => g.pick([{}, { passRate: 0.05 }, { costPerCase: 0.2, tokensPerCase: 100, stepsPerCase: 0 }]),
    gateOn: () => g.pick(['verdicts', 'samples']),
    calibration: () =>
      g.pick([
        { minLabels: 1, minAgreement: 1 },
        { minLabels: 1_000_000, minAgreement: 0.01 },
      ]),
    cluster: () => fn,
    recordResponses: () => g.chance(),
    borderline: () => g.pick([0.01, 0.49]),
    concurrency: () => g.pick([1, 32, 1024]),
    artifacts: () => g.pick([[], ['src/**/*.ts'], ['a', 'b']]),
    metadata: () => g.pick([{}, { owner: 'x' }]),
    timeout: () => g.pick([0, 30_000]),
    prices: () => g.pick([{}, { m: { input: 0, output: 1.5 } }]),
    budget: () => g.pick([{ usd: 1 }, { calls: 10 }, { usd: 0.5, calls: 1 }]),
    cache: () => g.chance(),
    conversation: () => g.pick([undefined, { turns: 2 }]),
    toolReplay: () => g.pick(['off', 'record', 'replay', 'strict']),
    unknownKey: () => 1,
  }
  for (const [key, make] of Object.entries(optional)) if (g.chance(0.4)) d[key] = make()
  return d
}

/** The definition with one value somewhere inside replaced by an odd one (or a key removed). */
function mutate(g: Gen, d: Fields): Fields {
  const copy = structuredClone({ ...d, target: undefined, scorers: undefined, cluster: undefined }) as Fields
  copy.target = d.target
  copy.scorers = (d.scorers as unknown[]).map((s) => (typeof s === 'function' ? s : { ...(s as Fields) }))
  if (d.cluster !== undefined) copy.cluster = d.cluster
  for (const key of ['target', 'scorers', 'cluster']) if (copy[key] === undefined) delete copy[key]
  const holders: Fields[] = [copy]
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return
    if (!Array.isArray(v)) holders.push(v as Fields)
    for (const inner of Object.values(v as object)) walk(inner)
  }
  for (const value of Object.values(copy)) walk(value)
  const arrays: unknown[][] = []
  const walkArrays = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return
    if (Array.isArray(v)) arrays.push(v)
    for (const inner of Object.values(v as object)) walkArrays(inner)
  }
  walkArrays(copy)
  if (arrays.length > 0 && g.chance(0.2)) {
    const array = g.pick(arrays)
    if (g.chance()) array.length = 0
    else array[g.int(array.length + 1)] = g.pick(ODD)
    return copy
  }
  const holder = g.pick(holders)
  const keys = Object.keys(holder)
  const key = keys.length === 0 || g.chance(0.2) ? g.pick(['name', 'id', 'min', 'usd', 'score', 'ask', 'input', 'passRate', 'extra']) : g.pick(keys)
  if (g.chance(0.15)) delete holder[key]
  else holder[key] = g.pick(ODD)
  return copy
}

describe('definitionSurelyValid', () => {
  it('says yes to the definitions a suite file writes, so they never reach zod', () => {
    const g = new Gen(seededRandom(7))
    for (let i = 0; i < 2000; i++) {
      const d = validDefinition(g)
      expect(definitionSchema.safeParse(d).success, JSON.stringify(d)).toBe(true)
      expect(definitionSurelyValid(d), JSON.stringify(d)).toBe(true)
    }
  })

  it('never says yes where zod refuses, over thousands of mutated definitions', () => {
    const g = new Gen(seededRandom(11))
    let refused = 0
    for (let i = 0; i < 5000; i++) {
      const d = mutate(g, validDefinition(g))
      const zod = definitionSchema.safeParse(d).success
      if (!zod) refused++
      if (definitionSurelyValid(d)) expect(zod, `said yes, zod refuses: ${String(i)}`).toBe(true)
    }
    expect(refused).toBeGreaterThan(1200)
  })

  it('sends what is not a definition to zod', () => {
    for (const odd of [undefined, null, 1, 'suite', [], fn]) expect(definitionSurelyValid(odd)).toBe(false)
  })
})
