// scorers.toolCalls over trajectories: the three orders, arguments by value and by zod schema,
// precision/recall/F1, the limits on calls and steps, expectations from the case, and reasons that
// quote arguments only when answers are recorded. One decision table, and one run through the driver.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { execute } from '../../../src/driver/execute.js'
import { scorers } from '../../../src/scorers/index.js'
import { toolCalls, type ToolCallsOptions } from '../../../src/scorers/tool-calls.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import type { AnswerStep, ToolCallStep } from '../../../src/suite/steps.js'
import type { ScoreResult } from '../../../src/suite/types.js'
import { suiteOf } from '../driver/fixture.js'
import { hashWith } from './helpers.js'

const SECRET = 'SECRET-ARG-42'
const model: AnswerStep = { type: 'model', usage: { input_tokens: 1, output_tokens: 1 } }
const call = (name: string, args: unknown = {}): ToolCallStep => ({ type: 'tool', name, ok: true, arguments: args })
const trajectory = (...calls: ToolCallStep[]): AnswerStep[] => calls.flatMap((c) => [model, c]).concat([model])

async function judge(options: ToolCallsOptions, steps: AnswerStep[], recorded = true, expected?: unknown): Promise<ScoreResult> {
  return (await toolCalls(options).score({ input: 'in', output: 'out', expected, caseId: 'c', recorded, steps })) as ScoreResult
}

const search = call('search', { q: 'lima', page: 1 })
const fetchDoc = call('fetch', { id: 7 })
const answer = call('answer', { text: SECRET })

describe('which calls, in what order', () => {
  const rows: [string, ToolCallsOptions, ToolCallStep[], boolean, number, RegExp | null][] = [
    ['in-order: all expected in order, extra allowed', { expected: ['search', 'fetch'] }, [search, answer, fetchDoc], true, 0.8, null],
    [
      'in-order: out of order',
      { expected: ['search', 'fetch'] },
      [fetchDoc, search],
      false,
      0.5,
      /missing expected call 2 of 2: fetch \(called as call 1, out of the expected order\)/,
    ],
    ['in-order: never called', { expected: ['search', 'fetch'] }, [search], false, 0.666667, /missing expected call 2 of 2: fetch \(never called\)/],
    ['any: out of order is fine', { expected: ['search', 'fetch'], order: 'any' }, [fetchDoc, search], true, 1, null],
    ['any: a repeated call needs two calls', { expected: ['search', 'search'], order: 'any' }, [search], false, 0.666667, /missing expected call 2 of 2: search/],
    ['exact: the same calls in order', { expected: ['search', 'fetch'], order: 'exact' }, [search, fetchDoc], true, 1, null],
    ['exact: an extra call fails, named', { expected: ['search', 'fetch'], order: 'exact' }, [search, fetchDoc, answer], false, 0.8, /unexpected call 3 of 3: answer/],
    ['no expected calls and none made', { expected: [] }, [], true, 1, null],
    ['expected calls, none made', { expected: ['search'] }, [], false, 0, /never called.*0 of 1 expected call made, 0 calls in all/],
  ]
  for (const [label, options, calls, pass, score, reason] of rows) {
    it(label, async () => {
      const result = await judge(options, trajectory(...calls))
      expect({ pass: result.pass, score: result.score }).toEqual({ pass, score })
      if (reason === null) expect(result.reason).toBeUndefined()
      else expect(result.reason).toMatch(reason)
    })
  }
})

describe('arguments', () => {
  it('by value: a subset of keys by default, or equal whole', async () => {
    expect((await judge({ expected: [{ name: 'search', args: { q: 'lima' } }] }, trajectory(search))).pass).toBe(true)
    expect((await judge({ expected: [{ name: 'search', args: { q: 'lima' } }], argsMatch: 'equal' }, trajectory(search))).pass).toBe(false)
    expect((await judge({ expected: [{ name: 'search', args: { q: 'lima', page: 1 } }], argsMatch: 'equal' }, trajectory(search))).pass).toBe(true)
  })

  it('by a zod schema per tool, for every expected call of it that names none', async () => {
    const args = { search: z.object({ q: z.string().min(1), page: z.number().int().max(3) }) }
    expect((await judge({ expected: ['search'], args }, trajectory(search))).pass).toBe(true)
    const bad = await judge({ expected: ['search'], args }, trajectory(call('search', { q: SECRET, page: 9 })), false)
    expect(bad.pass).toBe(false)
    expect(bad.reason).toMatch(/missing expected call 1 of 1: search \(call 1 of search has arguments the schema refuses: page .*arguments\.page\)/)
    expect(bad.reason).not.toContain(SECRET)
  })

  it('reasons quote arguments only when answers are recorded', async () => {
    const options: ToolCallsOptions = { expected: [{ name: 'answer', args: { text: 'other' } }] }
    const shown = await judge(options, trajectory(answer), true)
    expect(shown.reason).toContain(SECRET)
    const hidden = await judge(options, trajectory(answer), false)
    expect(hidden.reason).toMatch(/call 1 of answer has other arguments; not quoted, as answers are not recorded/)
    expect(hidden.reason).not.toContain(SECRET)
    const extra = await judge({ expected: [], order: 'exact' }, trajectory(answer), false)
    expect(extra.reason).toMatch(/^unexpected call 1 of 1: answer \(order/)
    expect(extra.reason).not.toContain(SECRET)
  })
})

describe('limits, expectations from the case, the config', () => {
  it('at most N tool calls, at most N steps', async () => {
    const steps = trajectory(search, search, search)
    expect(await judge({ expected: ['search'], maxCalls: 2 }, steps)).toMatchObject({ pass: false, reason: expect.stringMatching(/^made 3 tool calls, more than maxCalls 2/) })
    expect(await judge({ expected: ['search'], maxSteps: 3 }, steps)).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/^took 4 steps \(model calls\), more than maxSteps 3/),
    })
    expect((await judge({ expected: ['search'], maxCalls: 3, maxSteps: 4 }, steps)).pass).toBe(true)
  })

  it("reads the case's expected value when no calls are declared: a list, or { toolCalls }", async () => {
    expect((await judge({}, trajectory(search), true, ['search'])).pass).toBe(true)
    expect((await judge({}, trajectory(search), true, { toolCalls: [{ name: 'fetch' }] })).pass).toBe(false)
    await expect(judge({}, trajectory(search), true, 'search')).rejects.toThrow(/the case's expected value must be a list of tool calls/)
  })

  it('its config names the rule (schemas as JSON Schema), so a change of it changes config_hash; bad options are refused', () => {
    const a = toolCalls({ expected: ['search'], args: { search: z.object({ q: z.string() }) }, maxCalls: 6 })
    expect(a.config).toMatchObject({ order: 'in-order', expected: [{ name: 'search', args: { schema: { type: 'object' } } }], max_calls: 6, args_match: 'subset' })
    expect(hashWith(a)).not.toBe(hashWith(toolCalls({ expected: ['search'], args: { search: z.object({ q: z.number() }) }, maxCalls: 6 })))
    expect(scorers.toolCalls).toBe(toolCalls)
    expect(() => toolCalls({ order: 'sorted' as never })).toThrow(InvalidSuiteError)
    expect(() => toolCalls({ maxCalls: -1 })).toThrow(/maxCalls must be a whole number/)
    expect(() => toolCalls({ expected: [3 as never] })).toThrow(/expected \[0\] must be a tool's name/)
  })
})

it('through the driver: a target that reports its steps is scored on them, and a custom scorer gets the whole trajectory', async () => {
  const seen: unknown[] = []
  const { results } = await execute({
    suite: suiteOf({
      cases: [
        { id: 'ok', input: 'q', expected: ['search', 'fetch'] },
        { id: 'bad', input: 'q', expected: ['fetch', 'answer'] },
      ],
      target: {
        ask: async () => ({
          output: 'done',
          steps: [{ type: 'model' }, { type: 'tool', name: 'search', arguments: { q: 1 } }, { type: 'model' }, { type: 'tool', name: 'fetch', error: 'down' }],
        }),
      },
      scorers: [toolCalls(), { name: 'trajectory', score: ({ steps }) => (seen.push(steps), true) }],
    }),
  })
  expect(results.map((r) => r.verdict)).toEqual(['pass', 'fail'])
  expect(results[1]!.samples[0]!.scorers[0]!.reason).toMatch(
    /^missing expected call 2 of 2: answer \(never called\); 1 of 2 expected calls made, 2 calls in all \(precision 0.5, recall 0.5\)$/,
  )
  expect(seen[0]).toEqual([
    { type: 'model' },
    { type: 'tool', name: 'search', ok: true, arguments: { q: 1 } },
    { type: 'model' },
    { type: 'tool', name: 'fetch', ok: false, error: 'down' },
  ])
})
