// `path` on every built-in scorer: one field of a structured answer (a JSON string or an object),
// the expected value read at the same path when it is an object, the path in config_hash only when set.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { execute } from '../../../src/driver/execute.js'
import { parsePath } from '../../../src/scorers/field-path.js'
import { scorers } from '../../../src/scorers/index.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { ScorerObject } from '../../../src/suite/types.js'
import { hashWith, score } from './helpers.js'

const ANSWER = JSON.stringify({ total: 41.5, currency: 'EUR', items: [{ name: 'Widget', qty: 2 }], note: 'paid by card' })

describe('path', () => {
  it('parses keys joined by dots with [n] for elements, and refuses anything else at construction', () => {
    expect(parsePath('total')).toEqual(['total'])
    expect(parsePath('items[0].name')).toEqual(['items', 0, 'name'])
    expect(parsePath('a.b[2][1]')).toEqual(['a', 'b', 2, 1])
    for (const bad of ['', '.a', 'a..b', 'a[', 'a[x]', 'a b', '[-1]']) expect(parsePath(bad), bad).toBeUndefined()
    expect(() => scorers.numeric({ tolerance: 0, path: 'a..b' })).toThrow(InvalidSuiteError)
    expect(() => scorers.exact({ path: '' })).toThrow(/not a field path/)
  })

  it.each<[string, ScorerObject, unknown, boolean]>([
    ['numeric', scorers.numeric({ tolerance: 0.5, path: 'total' }), 41, true],
    ['numeric, outside', scorers.numeric({ tolerance: 0.1, path: 'total' }), 41, false],
    ['exact', scorers.exact({ path: 'currency' }), 'EUR', true],
    ['exact, expected object read at the path', scorers.exact({ path: 'items[0].name' }), { items: [{ name: 'Widget' }] }, true],
    ['includes', scorers.includes('card', { path: 'note' }), undefined, true],
    ['regex', scorers.regex(/^[A-Z]{3}$/, { path: 'currency' }), undefined, true],
    ['json (a string field is not parsed again)', scorers.json(z.string().min(3), { path: 'currency' }), undefined, true],
    ['json, an object field', scorers.json(z.object({ name: z.string(), qty: z.number().int() }), { path: 'items[0]' }), undefined, true],
    ['editDistance', scorers.editDistance({ path: 'items[0].name', passAt: 0.8 }), 'Widgets', true],
    ['jsonDiff of a sub-object', scorers.jsonDiff({ path: 'items[0]' }), { items: [{ name: 'Widget', qty: 3 }] }, false],
  ])('%s scores the field', async (_label, scorer, expected, pass) => {
    expect((await score(scorer, ANSWER, expected)).pass).toBe(pass)
    expect((await score(scorer, JSON.parse(ANSWER), expected)).pass).toBe(pass)
  })

  it('a missing field or an answer that is not JSON fails, naming the path (config) and quoting nothing unrecorded', async () => {
    const scorer = scorers.numeric({ tolerance: 0, path: 'items[3].qty' })
    expect(await score(scorer, ANSWER, 2, false)).toEqual({ pass: false, score: 0, reason: 'the output has no field items[3].qty' })
    const prose = await score(scorer, 'Total: 41.50 EUR (Jane Roe)', 2, false)
    expect(prose).toMatchObject({ pass: false, score: 0 })
    expect(prose.reason).toBe('the output is a string that is not JSON (not quoted, as answers are not recorded), so it has no field items[3].qty')
    expect((await score(scorer, 'Total: Jane', 2, true)).reason).toContain('"Total: Jane"')
  })

  it("a failing field's reason is prefixed with its path; an expected object without the field errors the case", async () => {
    expect((await score(scorers.numeric({ tolerance: 0.1, path: 'total' }), ANSWER, 40)).reason).toBe('at total: expected 40 ± 0.1, got 41.5')
    await expect(score(scorers.numeric({ tolerance: 0, path: 'total' }), ANSWER, { sum: 41.5 })).rejects.toThrow(/expected value is an object without the field total/)
  })

  it('the path is in the config (so config_hash) when set, and a scorer without one keeps its config and hash', () => {
    const plain = scorers.numeric({ tolerance: 0.5 })
    expect(plain.config).toEqual({ tolerance: 0.5, relative: false })
    expect(scorers.numeric({ tolerance: 0.5, path: 'total' }).config).toEqual({ tolerance: 0.5, relative: false, path: 'total' })
    expect(hashWith(plain)).toBe(hashWith(scorers.numeric({ tolerance: 0.5 })))
    expect(hashWith(plain)).not.toBe(hashWith(scorers.numeric({ tolerance: 0.5, path: 'total' })))
    expect(hashWith(scorers.numeric({ tolerance: 0.5, path: 'total' }))).not.toBe(hashWith(scorers.numeric({ tolerance: 0.5, path: 'subtotal' })))
  })

  it('two fields of one answer in one suite, each with its own score and reason in the sample', async () => {
    const suite = resolveSuite({
      name: 'invoice',
      cases: [{ id: 'a', input: 'invoice a', expected: { total: 41.5, currency: 'USD' } }],
      target: () => ANSWER,
      scorers: [scorers.numeric({ tolerance: 0.01, path: 'total', name: 'total' }), scorers.exact({ path: 'currency', name: 'currency' })],
    })
    const { results } = await execute({ suite })
    expect(results[0]!.samples[0]!.scorers).toEqual([
      { name: 'total', pass: true, score: 1, reason: null },
      {
        name: 'currency',
        pass: false,
        score: 0,
        reason: 'at currency: the output does not equal the expected value (both strings; neither is quoted, as answers are not recorded)',
      },
    ])
  })
})
