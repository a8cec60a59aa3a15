// The journal header's hand check says yes exactly when journalHeaderSchema would accept the fields
// and give them back unchanged below the top (which zod puts in its own order, as the check does),
// and an observed record's when observedSchema would give it back as it is: seeded random values,
// valid ones in every optional combination, and each mutated once somewhere inside.
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { isCanonicalObserved } from '../../../src/document/fast-shape.js'
import { observedSchema } from '../../../src/document/schema.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { decodeLine, encodeHeader, journalHeaderSchema, type RunBinding } from '../../../src/store/journal-format.js'
import { fastJournalHeader, HEADER_FIELDS } from '../../../src/store/journal-header-shape.js'
import type { JournalHeader } from '../../../src/store/journal.js'
import { Gen, mutate, sameBelowTop, sameInOrder, type Json } from '../../helpers/shape-fuzz.js'

function header(g: Gen): Json {
  const value: Json = {
    journal_version: g.pick([2, 1, 0]),
    leg: g.pick([1, 2, 40]),
    created_at: g.text(),
    started_at: g.text(),
    digline_version: g.text(),
    tenant: g.text(),
    environment: g.text(),
    suite: g.text(),
    config_hash: g.text(),
    cases_digest: g.text(),
    artifacts: g.record(() => g.text()),
    target_config: g.record(() => g.json()),
    judge_config: {
      scorers: Array.from({ length: g.int(3) }, () => ({ name: g.text(), config: g.record(() => g.json()), pass_at: g.pick([0.5, 1, -2]) })),
      ...(g.chance(0.2) ? { simulated_user: g.record(() => g.json()) } : {}),
    },
    record_responses: g.chance(),
    git_commit: g.chance() ? null : g.text(),
    lease: { host: g.text(), boot: g.chance() ? null : g.text(), pid: g.pick([1, 4242, Number.MAX_SAFE_INTEGER]), start_time: g.chance() ? null : g.count() },
  }
  if (g.chance(0.3)) value.shard = g.pick(['1/2', '3/4', '10/12'])
  if (g.chance(0.3)) value.datasets = g.record(() => g.text())
  if (g.chance(0.3)) value.slice = { tags: Array.from({ length: g.int(3) }, () => g.text()), suite_cases: g.count() }
  if (g.chance(0.3)) value.variant = { suite: g.text(), name: g.text(), ...(g.chance() ? { position: g.pick([0, 2]) } : {}) }
  return value
}

function checkHeader(value: Json): void {
  const zod = journalHeaderSchema.safeParse(value)
  const result = fastJournalHeader(value)
  const unchanged = zod.success && sameBelowTop(zod.data as Json, value)
  if ((result !== undefined) !== unchanged) expect.fail(`fast ${!unchanged} but zod ${unchanged ? 'keeps' : 'refuses or changes'} ${inspect(value, { depth: 20 })}`)
  if (result !== undefined) {
    expect(sameInOrder(result, zod.data)).toBe(true)
    for (const key of Object.keys(value)) expect((result as unknown as Json)[key]).toBe(value[key])
  }
}

function checkObserved(value: unknown): void {
  const zod = observedSchema.safeParse(value)
  const unchanged = zod.success && sameInOrder(zod.data, value)
  if (isCanonicalObserved(value) !== unchanged) expect.fail(`fast ${!unchanged} but zod ${unchanged ? 'keeps' : 'refuses or changes'} ${inspect(value, { depth: 20 })}`)
}

describe('fastJournalHeader', () => {
  it('accepts every valid header, in the schema order, keeping every value below the top', () => {
    const g = new Gen(seededRandom(29))
    for (let i = 0; i < 2000; i++) {
      const value = header(g)
      checkHeader(value)
      expect(fastJournalHeader(value)).toBeDefined()
      const parsed = JSON.parse(JSON.stringify(value)) as Json
      expect(Object.keys(fastJournalHeader(parsed)!)).toEqual(HEADER_FIELDS.filter((key) => key in parsed))
    }
  })

  it('says yes exactly when zod accepts a mutated header unchanged', () => {
    const g = new Gen(seededRandom(31))
    let refused = 0
    let reordered = 0
    for (let i = 0; i < 6000; i++) {
      const value = mutate(g, header(g))
      const zod = journalHeaderSchema.safeParse(value)
      if (!zod.success) refused++
      else if (!sameInOrder(zod.data, value)) reordered++
      checkHeader(value)
    }
    // The mutations reach zod's refusals and its reordering or stripping, not only acceptance.
    expect(refused).toBeGreaterThan(1500)
    expect(reordered).toBeGreaterThan(300)
  })

  it.each<[string, (h: Json) => Json]>([
    ['a shard of 0', (h) => ({ ...h, shard: '0/2' })],
    ['a shard with a sign', (h) => ({ ...h, shard: '+1/2' })],
    ['a lease with another key', (h) => ({ ...h, lease: { ...(h.lease as Json), port: 1 } })],
    ['a lease in another order', (h) => ({ ...h, lease: (({ host, ...rest }) => ({ ...rest, host }))(h.lease as Json) })],
    ['a lease pid of 0', (h) => ({ ...h, lease: { ...(h.lease as Json), pid: 0 } })],
    ['a leg beyond the safe integers', (h) => ({ ...h, leg: 2 ** 53 })],
    ['a kind left in', (h) => ({ kind: 'header', ...h })],
    ['top-level keys in another order', ({ journal_version, ...rest }) => ({ ...rest, journal_version })],
  ])('%s', (_name, change) => checkHeader(change(header(new Gen(seededRandom(5))))))

  it('decodes a header line as zod gives it back, for every header the encoder writes', () => {
    const g = new Gen(seededRandom(37))
    const binding: RunBinding = { tenant: 't', suite: 's', key: '20261205T070000000000Z-3f9a0c1b2d4e' }
    for (let i = 0; i < 300; i++) {
      const value = { ...header(g), journal_version: 2 } as unknown as JournalHeader
      const line = encodeHeader(binding, value)
      const decoded = decodeLine(line.subarray(0, line.length - 1), binding)
      if (!decoded.ok || decoded.record.kind !== 'header') return expect.fail(`not decoded: ${inspect(decoded)}`)
      const { kind: _kind, ...fields } = JSON.parse(JSON.stringify({ kind: 'header', ...value })) as Json
      expect(sameInOrder(decoded.record.header, journalHeaderSchema.parse(fields))).toBe(true)
    }
  })
})

describe('isCanonicalObserved', () => {
  it('says yes exactly when zod gives an observed record back unchanged', () => {
    const g = new Gen(seededRandom(41))
    let refused = 0
    for (let i = 0; i < 4000; i++) {
      const value: Json = { target_model: g.chance() ? null : g.text(), judge_models: g.record(() => g.text()) }
      checkObserved(value)
      expect(isCanonicalObserved(value)).toBe(true)
      const mutated = mutate(g, value)
      if (!observedSchema.safeParse(mutated).success) refused++
      checkObserved(mutated)
    }
    expect(refused).toBeGreaterThan(1000)
  })
})
