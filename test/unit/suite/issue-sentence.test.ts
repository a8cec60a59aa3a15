// zod issues read as sentences: what the field must be, what it was, and where — never zod's own
// "Too small: expected number to be >=1".
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { describeZodError } from '../../../src/suite/issue-sentence.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'

const schema = z.object({
  samples: z.number().int().min(1).max(1000).optional(),
  minAgreement: z.number().min(0).max(1).optional(),
  cases: z.array(z.object({ id: z.string() })).min(1),
  thresholds: z.object({ passRate: z.number().optional() }).strict().optional(),
  prices: z.record(z.string(), z.object({ input: z.number().nonnegative() })).optional(),
  mode: z.enum(['fast', 'slow']).optional(),
})

const sentence = (input: unknown) => {
  const parsed = schema.safeParse(input)
  if (parsed.success) throw new Error('expected an issue')
  return describeZodError(parsed.error, input, 'suite', schema)
}

describe('describeZodError', () => {
  test.each([
    [{ samples: 0, cases: [{ id: 'a' }] }, 'samples must be a whole number from 1 to 1000 (got 0) at suite.samples'],
    [{ samples: 1.5, cases: [{ id: 'a' }] }, 'samples must be a whole number from 1 to 1000 (got 1.5) at suite.samples'],
    [{ samples: '3', cases: [{ id: 'a' }] }, 'samples must be a whole number from 1 to 1000 (got "3") at suite.samples'],
    [{ minAgreement: 1.5, cases: [{ id: 'a' }] }, 'minAgreement must be a number from 0 to 1 (got 1.5) at suite.minAgreement'],
    [{ cases: [] }, 'cases must have at least 1 item (got []) at suite.cases'],
    [{ cases: [{ id: 'a' }, { id: 3 }] }, 'id must be a string (got 3) at suite.cases[1].id'],
    [{}, 'cases must be an array (got nothing) at suite.cases'],
    [{ cases: [{ id: 'a' }], thresholds: { passrate: 0.9 } }, 'thresholds has an unknown key "passrate" at suite.thresholds'],
    [{ cases: [{ id: 'a' }], prices: { m: { input: -1 } } }, 'input must be a number ≥ 0 (got -1) at suite.prices.m.input'],
    [{ cases: [{ id: 'a' }], mode: 'medium' }, 'mode must be one of "fast", "slow" (got "medium") at suite.mode'],
  ])('%j → %s', (input, expected) => {
    expect(sentence(input).sentence).toBe(expected)
  })

  test('names the path as the refusal path, and works without the schema', () => {
    const parsed = schema.safeParse({ cases: [{ id: 'a' }], samples: 0 })
    const described = describeZodError(parsed.error!, { samples: 0 }, 'options')
    expect(described.path).toEqual(['samples'])
    expect(described.sentence).toBe('samples must be a number ≥ 1 (got 0) at options.samples')
  })
})

describe('an evalSuite definition zod refuses', () => {
  const valid = { name: 's', cases: [{ id: 'a', input: 1 }], target: (x: unknown) => x, scorers: [() => 1] }
  test.each([
    [{ samples: 0 }, 'suite "s" was refused: samples must be a whole number from 1 to 1000 (got 0) at suite.samples'],
    [{ concurrency: 2.5 }, 'concurrency must be a whole number from 1 to 1024 (got 2.5) at suite.concurrency'],
    [{ target: 5 }, 'target must be a function or { ask } (got 5) at suite.target'],
    [{ thresholds: { passrate: 0.9 } }, 'thresholds has an unknown key "passrate" at suite.thresholds'],
  ])('%j is refused in a sentence', (fields, expected) => {
    let thrown: unknown
    try {
      resolveSuite({ ...valid, ...fields } as never)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InvalidSuiteError)
    expect((thrown as Error).message).toContain(expected)
    expect((thrown as Error).message).not.toMatch(/Too small|Too big|Invalid input|expected number to be/)
  })
})
