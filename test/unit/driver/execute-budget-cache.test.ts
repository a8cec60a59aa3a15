// The driver's budget and its cached answers: no case starts once the budget is reached, a started
// case asks all its samples, cached answers are not asked for again and are marked in the result.
import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { BudgetStop } from '../../../src/driver/budget.js'
import { caseResultSchema, type CaseResult } from '../../../src/document/schema.js'
import { serializeCase } from '../../../src/document/serialize.js'
import { counted, echoCases, sleep, suiteOf } from './fixture.js'

describe('execute under a budget', () => {
  it.each([1, 8, 30])('at concurrency %d, a calls budget of 23 with 3 samples starts 7 cases (21 calls) and journals each of them whole', async (concurrency) => {
    const { target, calls } = counted(async (input: unknown) => (await sleep(2), input))
    const suite = suiteOf({ cases: echoCases(20), target, samples: 3, concurrency })
    const journaled: CaseResult[] = []
    const error: unknown = await execute({ suite, budget: { calls: 23 }, onCase: (p) => void journaled.push(p.result) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BudgetStop)
    expect((error as BudgetStop).spent.calls).toBe(21)
    expect((error as BudgetStop).unjudged).toBe(13)
    expect(calls).toHaveLength(21)
    expect(journaled).toHaveLength(7)
    expect(journaled.every((r) => r.verdict === 'pass' && r.samples.length === 3)).toBe(true)
  })

  it('a budget that the run stays under changes nothing', async () => {
    const { target, calls } = counted((input: unknown) => input)
    const suite = suiteOf({ cases: echoCases(5), target, samples: 2, concurrency: 4 })
    const run = await execute({ suite, budget: { calls: 10 } })
    expect(calls).toHaveLength(10)
    expect(run.results.map((r) => r.verdict)).toEqual(Array(5).fill('pass'))
  })
})

describe('execute with cached answers', () => {
  it('asks only for the samples the cache does not hold, marks the cached ones, and hands each new answer over', async () => {
    const { target, calls } = counted((input: unknown) => ({ output: input, model: 'm-1', usage: { input_tokens: 4, output_tokens: 1 } }))
    const suite = suiteOf({ cases: echoCases(3), target: { ask: target }, samples: 2 })
    const cached = new Map([
      [
        'c000',
        [
          { output: 'c000', model: 'm-1' },
          { output: 'c000', model: 'm-1' },
        ],
      ],
      ['c001', [undefined, { output: 'wrong', model: 'm-1' }]],
    ])
    const kept: string[] = []
    const run = await execute({ suite, cached, onAnswer: async (caseId, sample) => void kept.push(`${caseId}:${sample}`), budget: { calls: 3 } })
    expect(calls.map((c) => `${c.caseId}:${c.sample}`).sort()).toEqual(['c001:0', 'c002:0', 'c002:1'])
    expect(kept.sort()).toEqual(['c001:0', 'c002:0', 'c002:1'])
    expect(run.targetCalls).toBe(3)
    expect(run.results.map((r) => r.samples.map((s) => s.cached === true))).toEqual([
      [true, true],
      [false, true],
      [false, false],
    ])
    expect(run.results[1]!.verdict).toBe('fail')
    // The journal writes and reads case records with the same serializer and schema: the marks survive a resume.
    for (const result of run.results) expect(caseResultSchema.parse(JSON.parse(serializeCase(result)))).toEqual(result)
  })
})
