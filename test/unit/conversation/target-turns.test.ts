// A target that runs its own conversation gives its turns with the answer: scorers see them whole,
// the document keeps what was said only when answers are recorded, the usage is the turns' sum, and
// a malformed turn errors its case by name.
import { describe, expect, it } from 'vitest'
import { amountOf } from '../../../src/host/judge/amount-gates.js'
import { execute } from '../../../src/driver/execute.js'
import { caseToJson } from '../../../src/document/serialize.js'
import type { CaseResult } from '../../../src/document/schema.js'
import type { ScorerArgs, TargetAnswer } from '../../../src/suite/types.js'
import { suiteOf } from '../driver/fixture.js'

const SECRET_USER = 'my card is 4111-SECRET'
const SECRET_ANSWER = 'card noted: SECRET-ACK'

const conversation: TargetAnswer = {
  output: SECRET_ANSWER,
  turns: [
    { role: 'user', content: SECRET_USER },
    {
      role: 'assistant',
      content: SECRET_ANSWER,
      steps: [
        { type: 'model', model: 'm1', usage: { input_tokens: 10, output_tokens: 2 } },
        { type: 'tool', name: 'store_card', arguments: { card: SECRET_USER }, result: { ok: SECRET_ANSWER } },
        { type: 'model', model: 'm1', usage: { input_tokens: 5, output_tokens: 1 } },
      ],
    },
    { role: 'user', content: 'thanks' },
    { role: 'assistant', content: 'bye', usage: { input_tokens: 3, output_tokens: 1 } },
  ],
}

function run(record: boolean, answer: unknown = conversation) {
  const seen: ScorerArgs[] = []
  return {
    seen,
    execution: execute({
      suite: suiteOf({
        cases: [{ id: 'c', input: 'x' }],
        target: { ask: async () => answer as TargetAnswer },
        scorers: [{ name: 'transcript', score: (args) => (seen.push(args), (args.turns ?? []).length === 4) }],
        recordResponses: record,
      }),
    }),
  }
}

describe('turns a target gives', () => {
  it('reach the scorers whole, with the steps of every turn as the trajectory', async () => {
    const { seen, execution } = run(false)
    const { results } = await execution
    expect(results[0]!.verdict).toBe('pass')
    expect(seen[0]!.turns![0]!.content).toBe(SECRET_USER)
    expect(seen[0]!.steps!.map((s) => s.type)).toEqual(['model', 'tool', 'model'])
  })

  it('unrecorded: roles, usage and the steps cut as steps are; no word said, no argument, no result', async () => {
    const { results, targetCalls } = await run(false).execution
    const sample = (caseToJson(results[0]!) as unknown as CaseResult).samples[0]!
    expect(sample.usage).toEqual({ input_tokens: 18, output_tokens: 4 })
    expect(sample.turns).toEqual([
      { role: 'user' },
      {
        role: 'assistant',
        usage: { input_tokens: 15, output_tokens: 3 },
        steps: [
          { type: 'model', model: 'm1', usage: { input_tokens: 10, output_tokens: 2 } },
          { type: 'tool', name: 'store_card', ok: true },
          { type: 'model', model: 'm1', usage: { input_tokens: 5, output_tokens: 1 } },
        ],
      },
      { role: 'user' },
      { role: 'assistant', usage: { input_tokens: 3, output_tokens: 1 } },
    ])
    expect(JSON.stringify(caseToJson(results[0]!))).not.toMatch(/SECRET|thanks|bye/)
    expect(targetCalls, 'one call to the target, plus the agent turn’s second model call').toBe(2)
  })

  it("the comparison's trajectory gates count the turns' steps", async () => {
    const { results } = await run(false).execution
    expect(amountOf('tool_calls_per_case', results[0]!)).toBe(1)
    expect(amountOf('steps_per_case', results[0]!)).toBe(2)
  })

  it('recorded: every turn as it was said', async () => {
    const { results } = await run(true).execution
    const turns = (caseToJson(results[0]!) as unknown as CaseResult).samples[0]!.turns!
    expect(turns.map((t) => t.content)).toEqual([SECRET_USER, SECRET_ANSWER, 'thanks', 'bye'])
    expect(turns[1]!.steps![1]).toEqual({ type: 'tool', name: 'store_card', ok: true, arguments: { card: SECRET_USER }, result: { ok: SECRET_ANSWER } })
  })

  it.each([
    [{ output: 'x', turns: 'hi' }, 'turns must be a list'],
    [{ output: 'x', turns: [{ role: 'system', content: 'x' }] }, "turns[0].role must be 'user' or 'assistant'"],
    [{ output: 'x', turns: [{ role: 'user', steps: [] }] }, "turns[0].steps: only the target's (assistant) turns have steps"],
    [{ output: 'x', turns: [], steps: [] }, "a conversation's steps belong to its turns"],
    [
      { output: 'x', usage: { input_tokens: 1, output_tokens: 1 }, turns: [{ role: 'assistant', usage: { input_tokens: 2, output_tokens: 1 } }] },
      "is not the sum of its turns' usage",
    ],
  ])('a malformed conversation errors its case: %j', async (answer, message) => {
    const { results } = await run(false, answer).execution
    expect(results[0]!.verdict).toBe('error')
    expect(results[0]!.error!.message).toContain(message)
  })
})
