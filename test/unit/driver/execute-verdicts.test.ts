import { describe, expect, it } from 'vitest'
import { execute, requiredPasses } from '../../../src/driver/execute.js'
import { caseResultSchema } from '../../../src/document/schema.js'
import { serializeCase } from '../../../src/document/serialize.js'
import type { ScorerReturn } from '../../../src/suite/types.js'
import { counted, suiteOf } from './fixture.js'

/** A target whose k-th sample (0-based) of each case answers outputs[k]. */
function bySample(outputs: readonly string[]) {
  return counted((_input, ctx) => outputs[ctx.sample]!)
}

const capital = [{ id: 'peru', input: 'Peru', expected: 'Lima' }]

describe('requiredPasses', () => {
  it.each([
    [2 / 3, 3, 2],
    [0, 3, 0],
    [1, 3, 3],
    [1 / 3, 3, 1],
    [0.5, 3, 2],
    [0.7, 10, 7],
    [0.6, 5, 3],
    [1, 1, 1],
    [0, 1, 0],
  ])('minAgreement %d with %d samples needs %d', (minAgreement, samples, needed) => {
    expect(requiredPasses(minAgreement, samples)).toBe(needed)
  })
})

describe('execute: verdicts', () => {
  it('passes a single-sample case whose answer matches, with no reason', async () => {
    const { target, calls } = bySample(['Lima'])
    const { results, targetCalls } = await execute({ suite: suiteOf({ cases: capital, target }) })
    expect(results).toEqual([
      {
        case_id: 'peru',
        verdict: 'pass',
        score: 1,
        passed_samples: 1,
        reason: null,
        error: null,
        samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }],
      },
    ])
    expect(targetCalls).toBe(1)
    expect(calls).toHaveLength(1)
    expect(caseResultSchema.safeParse(results[0]).success).toBe(true)
  })

  it('fails with the first failing scorer reason of the first failing sample', async () => {
    const { target } = bySample(['Quito'])
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, recordResponses: true }) })
    expect(results[0]).toMatchObject({ verdict: 'fail', score: 0, passed_samples: 0, error: null })
    expect(results[0]!.reason).toBe('0/1 samples passed; sample 0, exact: expected "Lima", got "Quito"')
    const unrecorded = await execute({ suite: suiteOf({ cases: capital, target }) })
    expect(unrecorded.results[0]!.reason).toBe(
      '0/1 samples passed; sample 0, exact: the output does not equal the expected value (both strings; neither is quoted, as answers are not recorded)',
    )
  })

  it('2 of 3 samples at minAgreement 2/3 passes; 1 of 3 fails naming the first failing sample', async () => {
    const two = bySample(['Lima', 'Lima', 'Quito'])
    const pass = await execute({ suite: suiteOf({ cases: capital, target: two.target, samples: 3, minAgreement: 2 / 3 }) })
    expect(pass.results[0]).toMatchObject({ verdict: 'pass', passed_samples: 2, reason: null })
    expect(pass.results[0]!.score).toBeCloseTo(2 / 3, 12)
    expect(two.calls.map((c) => c.sample)).toEqual([0, 1, 2])

    const one = bySample(['Lima', 'Bogota', 'Quito'])
    const fail = await execute({ suite: suiteOf({ cases: capital, target: one.target, samples: 3, minAgreement: 2 / 3, recordResponses: true }) })
    expect(fail.results[0]).toMatchObject({ verdict: 'fail', passed_samples: 1 })
    // Samples are numbered from 0, as ctx.sample numbers them: the second answer is sample 1.
    expect(fail.results[0]!.reason).toBe('1/3 samples passed; sample 1, exact: expected "Lima", got "Bogota"')
  })

  it('minAgreement 1 (the default) needs every sample; 0 passes a case whose samples all fail', async () => {
    const mixed = bySample(['Lima', 'Lima', 'Quito'])
    const strict = await execute({ suite: suiteOf({ cases: capital, target: mixed.target, samples: 3, recordResponses: true }) })
    expect(strict.results[0]).toMatchObject({ verdict: 'fail', passed_samples: 2 })
    expect(strict.results[0]!.reason).toBe('2/3 samples passed; sample 2, exact: expected "Lima", got "Quito"')

    const wrong = bySample(['Quito', 'Quito', 'Quito'])
    const lenient = await execute({ suite: suiteOf({ cases: capital, target: wrong.target, samples: 3, minAgreement: 0 }) })
    expect(lenient.results[0]).toMatchObject({ verdict: 'pass', passed_samples: 0, score: 0, reason: null })
  })

  it('minAgreement 0.7 with 10 samples is met by exactly 7 passing samples (no float off-by-one)', async () => {
    const outputs = [...Array(7).fill('Lima'), ...Array(3).fill('Quito')] as string[]
    const { target } = bySample(outputs)
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, samples: 10, minAgreement: 0.7 }) })
    expect(results[0]).toMatchObject({ verdict: 'pass', passed_samples: 7 })
  })

  it('a sample passes only when every scorer passes; its score is the mean of the scorer scores', async () => {
    const { target } = bySample(['Lima'])
    const half = { name: 'half', config: {}, score: (): ScorerReturn => ({ pass: false, score: 0.5, reason: 'too terse' }) }
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, scorers: [(() => true) as never, half] }) })
    const sample = results[0]!.samples[0]!
    expect(sample.pass).toBe(false)
    expect(sample.score).toBe(0.75)
    expect(sample.scorers.map((s) => s.name)).toEqual(['scorer_1', 'half'])
    expect(results[0]!.reason).toBe('0/1 samples passed; sample 0, half: too terse')
  })

  it('the case score is the mean of its sample scores', async () => {
    const { target } = bySample(['a', 'b', 'c', 'd'])
    const scores: Record<string, number> = { a: 1, b: 0.5, c: 0.25, d: 0.25 }
    const graded = ({ output }: { output: unknown }): number => scores[output as string]!
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, samples: 4, minAgreement: 0, scorers: [graded as never] }) })
    expect(results[0]!.samples.map((s) => s.score)).toEqual([1, 0.5, 0.25, 0.25])
    expect(results[0]!.score).toBe(0.5)
  })

  it('a number passes at >= passAt (default 0.5), and a failing one says so', async () => {
    const { target } = bySample(['x', 'y'])
    const byOutput = ({ output }: { output: unknown }): number => (output === 'x' ? 0.5 : 0.49)
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, samples: 2, scorers: [byOutput as never] }) })
    const [first, second] = results[0]!.samples
    expect(first).toMatchObject({ pass: true, score: 0.5 })
    expect(second).toMatchObject({ pass: false, score: 0.49 })
    expect(second!.scorers[0]!.reason).toBe('score 0.49 is below pass_at 0.5')
  })

  it('an object scorer with passAt 0.8 fails a 0.79', async () => {
    const { target } = bySample(['x'])
    const strict = { name: 'strict', passAt: 0.8, score: () => 0.79 }
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, scorers: [strict] }) })
    expect(results[0]).toMatchObject({ verdict: 'fail', reason: '0/1 samples passed; sample 0, strict: score 0.79 is below pass_at 0.8' })
  })

  it('booleans score 1 and 0; an object without score gets 1 or 0 from pass', async () => {
    const { target } = bySample(['x'])
    const scorers = [
      { name: 'yes', score: () => true },
      { name: 'obj', score: () => ({ pass: true }) },
    ]
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, scorers }) })
    expect(results[0]!.samples[0]!.scorers.map((s) => [s.name, s.pass, s.score, s.reason])).toEqual([
      ['yes', true, 1, null],
      ['obj', true, 1, null],
    ])
  })

  it('clamps float noise at the bounds of 0..1', async () => {
    const { target } = bySample(['x'])
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, scorers: [{ name: 'n', score: () => 1 + 1e-12 }] }) })
    expect(results[0]!.samples[0]!.score).toBe(1)
  })
})

describe('execute: errors', () => {
  it.each<[string, ScorerReturn | string]>([
    ['NaN', Number.NaN],
    ['a score above 1', 1.5],
    ['a negative score', -0.1],
    ['an object score out of range', { pass: true, score: 2 }],
    ['a non-boolean pass', { pass: 'yes' } as never],
    ['a string', 'yes'],
  ])('a scorer returning %s errors the case with cause scorer', async (_label, value) => {
    const { target } = bySample(['Lima'])
    const bad = { name: 'bad', score: () => value as ScorerReturn }
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, scorers: [bad] }) })
    expect(results[0]).toMatchObject({ verdict: 'error', score: null, passed_samples: 0, samples: [], reason: null })
    expect(results[0]!.error!.cause).toBe('scorer')
    expect(results[0]!.error!.message).toMatch(/^sample 0 of 1, scorer "bad": /)
  })

  it('a scorer that throws errors the case with cause scorer and its message', async () => {
    const { target } = bySample(['Lima', 'Lima'])
    let seen = 0
    const flaky = { name: 'flaky', score: () => (++seen === 2 ? Promise.reject(new Error('judge timed out')) : true) }
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, samples: 2, scorers: [flaky] }) })
    expect(results[0]!.error).toEqual({ cause: 'scorer', message: 'sample 1 of 2, scorer "flaky": judge timed out' })
    expect(results[0]!.samples).toEqual([])
  })

  it('every scorer is called, whether the others return, throw or settle later; the first in the list that failed names the error', async () => {
    const { target } = bySample(['Lima'])
    const called: string[] = []
    const scorer = (name: string, score: () => ScorerReturn | Promise<ScorerReturn>) => ({
      name,
      score: () => {
        called.push(name)
        return score()
      },
    })
    const scorers = [
      scorer('later', () => new Promise<ScorerReturn>((resolve) => setTimeout(() => resolve(true), 5))),
      scorer('now', () => 0.75),
      scorer('thrower', () => {
        throw new Error('judge unreachable')
      }),
      scorer('rejecter', () => Promise.reject(new Error('judge refused'))),
    ]
    const { results } = await execute({ suite: suiteOf({ cases: capital, target, scorers }) })
    expect(called).toEqual(['later', 'now', 'thrower', 'rejecter'])
    expect(results[0]!.error).toEqual({ cause: 'scorer', message: 'sample 0 of 1, scorer "thrower": judge unreachable' })
  })

  it('scorers that all return at once and scorers that settle later give the same sample', async () => {
    const { target } = bySample(['Lima'])
    const now = [
      { name: 'a', score: () => 0.25 },
      { name: 'b', score: () => ({ pass: true, score: 0.5, reason: 'fine' }) },
    ]
    const later = now.map((s) => ({ name: s.name, score: async () => s.score() }))
    const mixed = [now[0]!, later[1]!]
    const samples = await Promise.all([now, later, mixed].map(async (scorers) => (await execute({ suite: suiteOf({ cases: capital, target, scorers }) })).results[0]!.samples))
    expect(samples[0]).toEqual([
      {
        pass: false,
        score: 0.375,
        scorers: [
          { name: 'a', pass: false, score: 0.25, reason: 'score 0.25 is below pass_at 0.5' },
          { name: 'b', pass: true, score: 0.5, reason: 'fine' },
        ],
      },
    ])
    expect(samples[1]).toEqual(samples[0])
    expect(samples[2]).toEqual(samples[0])
  })

  it('a target that throws in any sample errors the whole case and is not asked again', async () => {
    const { target, calls } = counted((_input, ctx) => {
      if (ctx.sample === 1) throw new Error('529 overloaded')
      return 'Lima'
    })
    const { results, targetCalls } = await execute({ suite: suiteOf({ cases: capital, target, samples: 3 }) })
    expect(results[0]).toEqual({
      case_id: 'peru',
      verdict: 'error',
      score: null,
      passed_samples: 0,
      reason: null,
      error: { cause: 'target', message: 'sample 1 of 3: 529 overloaded' },
      samples: [],
    })
    expect(calls.map((c) => c.sample)).toEqual([0, 1])
    expect(targetCalls).toBe(2)
  })

  it('other cases are judged normally beside an errored one', async () => {
    const { target } = counted((input) => {
      if (input === 'boom') throw new TypeError('bad input')
      return input
    })
    const cases = [
      { id: 'a', input: 'a', expected: 'a' },
      { id: 'b', input: 'boom', expected: 'boom' },
      { id: 'c', input: 'c', expected: 'c' },
    ]
    const { results } = await execute({ suite: suiteOf({ cases, target }) })
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'error', 'pass'])
    expect(results[1]!.error).toEqual({ cause: 'target', message: 'sample 0 of 1: TypeError: bad input' })
  })

  it.each([
    ['a bare value from ask()', 'Lima'],
    ['a non-string model', { output: 'Lima', model: 42 }],
    ['an empty model', { output: 'Lima', model: '' }],
    ['malformed usage', { output: 'Lima', usage: { input_tokens: -1, output_tokens: 2 } }],
  ])('a target answering %s errors the case with cause target', async (_label, answer) => {
    const suite = suiteOf({ cases: capital, target: { ask: () => answer as never } })
    const { results } = await execute({ suite })
    expect(results[0]!.verdict).toBe('error')
    expect(results[0]!.error!.cause).toBe('target')
  })

  it('an output that cannot be recorded as JSON is malformed when responses are recorded', async () => {
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const { target } = counted(() => circular)
    const recorded = await execute({ suite: suiteOf({ cases: capital, target, recordResponses: true }) })
    expect(recorded.results[0]!.error).toMatchObject({ cause: 'target' })
    expect(recorded.results[0]!.error!.message).toBe(
      'sample 0 of 1: malformed answer: the answer cannot be recorded (recordResponses is true): output.self is a cycle back to output, which JSON cannot represent faithfully (use a tree: copy the shared part, or refer to it by an id)',
    )
    const unrecorded = await execute({ suite: suiteOf({ cases: capital, target, scorers: [{ name: 'no', score: () => false }] }) })
    expect(unrecorded.results[0]!.verdict).toBe('fail')
  })
})

describe('execute: usage and recorded responses', () => {
  it('puts token usage on the sample only when the answer carries it', async () => {
    let n = 0
    const suite = suiteOf({
      cases: capital,
      samples: 2,
      target: { ask: () => (n++ === 0 ? { output: 'Lima', usage: { input_tokens: 10, output_tokens: 3 } } : { output: 'Lima' }) },
    })
    const { results } = await execute({ suite })
    expect(results[0]!.samples[0]!.usage).toEqual({ input_tokens: 10, output_tokens: 3 })
    expect('usage' in results[0]!.samples[1]!).toBe(false)
  })

  const cases = [
    { id: 'peru', input: { country: 'Peru' }, expected: 'Lima' },
    { id: 'open', input: 'anything' },
  ]
  const answer = (input: unknown): string => (typeof input === 'object' ? 'Lima' : 'free text')

  it('records output per sample, and input and expected per case, when recordResponses is on', async () => {
    const { target } = counted(answer)
    const { results } = await execute({ suite: suiteOf({ cases, target, recordResponses: true, samples: 2, minAgreement: 0 }) })
    expect(results[0]).toMatchObject({ input: { country: 'Peru' }, expected: 'Lima' })
    expect(results[0]!.samples.map((s) => s.output)).toEqual(['Lima', 'Lima'])
    expect(results[1]!.input).toBe('anything')
    expect('expected' in results[1]!).toBe(false)
    expect(JSON.parse(serializeCase(results[0]!))).toMatchObject({ input: { country: 'Peru' }, expected: 'Lima' })
  })

  it('records input and expected of an errored case too when recordResponses is on', async () => {
    const { target } = counted(() => {
      throw new Error('down')
    })
    const { results } = await execute({ suite: suiteOf({ cases, target, recordResponses: true }) })
    expect(results[0]).toMatchObject({ verdict: 'error', input: { country: 'Peru' }, expected: 'Lima' })
  })

  it('leaves no output, input or expected anywhere when recordResponses is off', async () => {
    const { target } = counted(answer)
    const { results } = await execute({ suite: suiteOf({ cases, target, samples: 2, minAgreement: 0 }) })
    const json = JSON.stringify(results)
    const serialized = results.map(serializeCase).join('\n')
    for (const text of [json, serialized]) {
      expect(text).not.toMatch(/"(output|input|expected)"/)
      expect(text).not.toContain('Peru')
      expect(text).not.toContain('free text')
    }
    expect(results[0]!.reason).toBeNull()
  })
})
