// SPEC §4: a recorded answer is plain JSON data; one that is not errors its case (cause target),
// naming the path, instead of being written as {} or null for a later rejudge to score.
import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { counted, suiteOf } from './fixture.js'

const one = [{ id: 'a', input: 'q', expected: 'x' }]
const anything = { name: 'any', score: () => true }

describe('recorded answers', () => {
  it.each<[string, unknown, string]>([
    ['undefined', undefined, 'output is undefined'],
    ['NaN', NaN, 'output is NaN'],
    ['a Map', new Map([['k', 1]]), 'output is a Map'],
    ['a function inside', { f: () => 1 }, 'output.f is a function (f)'],
    ['a Date inside an array', [1, new Date(0)], 'output[1] is a Date'],
    ['undefined inside an array', ['a', undefined], 'output[1] is undefined'],
    ['a BigInt', 7n, 'output is the BigInt 7n'],
  ])('%s errors its case, naming the path', async (_label, output, words) => {
    const { target } = counted(() => output)
    const { results } = await execute({ suite: suiteOf({ cases: one, target, scorers: [anything], recordResponses: true }) })
    expect(results[0]).toMatchObject({ verdict: 'error', samples: [], error: { cause: 'target' } })
    expect(results[0]!.error!.message).toContain('sample 0 of 1: malformed answer: the answer cannot be recorded (recordResponses is true): ')
    expect(results[0]!.error!.message).toContain(words)
  })

  it('the same answers are judged when they are not recorded', async () => {
    for (const output of [undefined, NaN, new Map()]) {
      const { target } = counted(() => output)
      const { results } = await execute({ suite: suiteOf({ cases: one, target, scorers: [anything] }) })
      expect(results[0]!.verdict).toBe('pass')
    }
  })

  it('plain answers are recorded as given; an undefined object member is left out', async () => {
    const { target } = counted(() => ({ a: [1, null, 'x'], b: undefined }))
    const { results } = await execute({ suite: suiteOf({ cases: one, target, scorers: [anything], recordResponses: true }) })
    expect(results[0]!.samples[0]!.output).toEqual({ a: [1, null, 'x'] })
  })
})
