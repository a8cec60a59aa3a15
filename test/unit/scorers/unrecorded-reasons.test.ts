// SPEC §7: with recordResponses false, a built-in scorer's reason (and the error it throws) says how
// an answer failed without quoting the output, the input or the expected value.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { exact, includes, json, numeric, regex } from '../../../src/scorers/index.js'
import { execute } from '../../../src/driver/execute.js'
import { judgementSchema, readJudgement } from '../../../src/scorers/judge-prompt.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { ScorerObject } from '../../../src/suite/types.js'
import { score } from './helpers.js'

const PII = 'Jane Roe, 4111 1111 1111 1111'
const EXPECTED = 'Jane Doe, SSN 078-05-1120'

const outcome = async (scorer: ScorerObject, output: unknown, expected: unknown): Promise<string> => {
  try {
    return (await score(scorer, output, expected, false)).reason ?? ''
  } catch (error) {
    return (error as Error).message
  }
}

describe('built-in scorers when answers are not recorded', () => {
  it.each<[string, ScorerObject, unknown, unknown]>([
    ['exact, two strings', exact(), PII, EXPECTED],
    ['exact, a string and an object', exact(), PII, { name: EXPECTED }],
    ['exact, a Map output', exact(), new Map([[PII, 1]]), EXPECTED],
    ['includes from expected', includes(), PII, EXPECTED],
    ['includes, an array expected', includes(), PII, ['Jane', EXPECTED]],
    ['includes, a non-string output', includes(), { card: PII }, EXPECTED],
    ['includes, an expected value it cannot search', includes(), PII, { name: EXPECTED }],
    ['regex', regex(/^\d+$/), PII, EXPECTED],
    ['regex, a non-string output', regex(/x/), [PII], EXPECTED],
    ['json, not JSON', json(z.object({ a: z.string() })), PII, EXPECTED],
    ['json, invalid', json(z.object({ a: z.number() })), JSON.stringify({ a: PII }), EXPECTED],
    ['numeric, outside', numeric({ tolerance: 0.5 }), '4111.25', 4110],
    ['numeric, not a number', numeric({ tolerance: 0.5 }), PII, 4110],
    ['numeric, expected not a number', numeric({ tolerance: 0.5 }), 4111, EXPECTED],
  ])('%s: the reason quotes neither the answer nor the expected value', async (_label, scorer, output, expected) => {
    const reason = await outcome(scorer, output, expected)
    expect(reason).not.toBe('')
    for (const secret of ['Jane', '4111', '078-05', '4110']) expect(reason).not.toContain(secret)
  })

  it('the same failures quote the values when answers are recorded', async () => {
    expect((await score(exact(), PII, EXPECTED, true)).reason).toContain(PII)
    expect((await score(includes(), PII, EXPECTED, true)).reason).toContain(EXPECTED)
    expect((await score(numeric({ tolerance: 0.5 }), '4111.25', 4110, true)).reason).toBe('expected 4110 ± 0.5, got 4111.25')
  })

  it('says how the answer failed: kinds, direction, the fixed needle or pattern (config, not answers)', async () => {
    expect(await outcome(exact(), 42, 'x')).toBe(
      'the output does not equal the expected value (the output is a number, the expected value a string; neither is quoted, as answers are not recorded)',
    )
    expect(await outcome(numeric({ tolerance: 0.5 }), 9, 4)).toBe('the output is above the expected value by more than 0.5 (neither is quoted, as answers are not recorded)')
    expect(await outcome(includes('refund'), 'no', undefined)).toBe('the output does not contain "refund" (the output is not quoted, as answers are not recorded)')
    expect(await outcome(regex(/^\d+$/), 'abc', undefined)).toBe('the output (not quoted, as answers are not recorded) does not match /^\\d+$/')
  })

  it('json() and the judge reply name no key or value the answer chose: unknown keys, record keys, wrong values', async () => {
    const emails = ['alice@example.com', 'bob@example.com', 'carol@example.com']
    const reasons = [
      await outcome(json(z.object({ a: z.number() }).strict()), JSON.stringify({ a: 1, 'alice@example.com': 1 }), undefined),
      await outcome(json(z.object({ a: z.number() }).strict()), JSON.stringify({ a: 1, 'alice@example.com': 1, 'carol@example.com': 2 }), undefined),
      await outcome(json(z.record(z.string(), z.number())), JSON.stringify({ 'bob@example.com': 'carol@example.com' }), undefined),
      await outcome(json(z.object({ people: z.record(z.string(), z.object({ age: z.number() })) })), { people: { 'bob@example.com': { age: 'old' } } }, undefined),
    ]
    const judge = (text: string) => {
      try {
        readJudgement(text, judgementSchema({ min: 1, max: 5 }), false)
        return ''
      } catch (error) {
        return (error as Error).message
      }
    }
    reasons.push(
      judge(JSON.stringify({ reasoning: 'fine', score: 3, 'bob@example.com': 'alice@example.com' })),
      judge(JSON.stringify({ reasoning: 'fine', score: 'carol@example.com' })),
    )
    for (const reason of reasons) {
      expect(reason).not.toBe('')
      for (const email of emails) expect(reason).not.toContain(email)
    }
    expect(reasons[0]).toBe('output has an unknown key (not quoted, as answers are not recorded) at output')
    expect(reasons[2]).toBe('a value must be a number (got a string) at output[…]')
    expect(reasons[3]).toBe('age must be a number (got a string) at output.people[…].age')
    // Recorded, the same failures name the key, as before.
    expect((await score(json(z.object({ a: z.number() }).strict()), JSON.stringify({ a: 1, 'alice@example.com': 1 }), undefined, true)).reason).toContain('"alice@example.com"')
  })

  it('the driver tells the scorers whether the run records answers', async () => {
    const seen: unknown[] = []
    const spy = { name: 'spy', score: ({ recorded }: { recorded?: boolean }) => (seen.push(recorded), true) }
    for (const recordResponses of [false, true]) {
      await execute({ suite: resolveSuite({ name: 's', cases: [{ id: 'a', input: 1 }], target: () => 1, scorers: [spy], recordResponses }) })
    }
    expect(seen).toEqual([false, true])
  })
})
