// The conversation step (ADR 0311), in process: scripted and simulated users, the target asked
// once per user message with the messages so far, the turns as scorers and the document see them,
// the simulated user in the judge config, its calls priced and its model pinned, and the refusals.
import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { conversationStep } from '../../../src/driver/conversation-step.js'
import { BudgetStop } from '../../../src/driver/budget.js'
import { conversationCallsOf } from '../../../src/suite/conversation.js'
import { costOf, pricingFor } from '../../../src/driver/cost.js'
import { caseToJson } from '../../../src/document/serialize.js'
import type { CaseResult } from '../../../src/document/schema.js'
import { configHash, judgeConfigOf } from '../../../src/suite/hashing.js'
import { suiteIdentity } from '../../../src/suite/resolve-suite.js'
import type { SimulatedUser } from '../../../src/suite/conversation.js'
import type { ChatMessage } from '../../../src/models/chat-model.js'
import type { ScorerArgs, SuiteDefinition, TargetContext } from '../../../src/suite/types.js'
import { suiteOf } from '../driver/fixture.js'
import { simulatedUser } from '../../../src/models/simulated-user.js'

/** A shop assistant that answers from the last user message; every call recorded. */
function assistant() {
  const calls: { messages: ChatMessage[]; ctx: TargetContext }[] = []
  const ask = async (messages: unknown, ctx: TargetContext) => {
    const list = messages as ChatMessage[]
    calls.push({ messages: list, ctx })
    const last = list[list.length - 1]!.content
    const output = /refund/.test(last) ? 'REFUND-OK for order 42' : /bye|thanks/i.test(last) ? 'Goodbye!' : `You said: ${last}`
    return { output, model: 'shop-v1', usage: { input_tokens: list.length, output_tokens: 1 } }
  }
  return { calls, target: { config: { model: 'shop-v1' }, ask } }
}

/** A rule-based user: asks for a refund, thanks the assistant once it has one; its calls recorded. */
function ruleUser(config: Record<string, unknown> = { model: 'rules-v1' }): SimulatedUser & { calls: number } {
  const user = {
    config,
    maxTurns: 5,
    calls: 0,
    async next({ goal, turns }: { goal: string; turns: readonly { role: string; content?: unknown }[] }) {
      user.calls++
      const last = turns[turns.length - 1]
      if (turns.length === 0) return { text: `Hello there (${goal.length})`, done: false, model: 'rules-v1', usage: { input_tokens: 7, output_tokens: 3 } }
      if (String(last?.content).includes('REFUND-OK')) return { text: 'thanks', done: true, model: 'rules-v1', usage: { input_tokens: 9, output_tokens: 1 } }
      return { text: 'a refund please', done: false, model: 'rules-v1', usage: { input_tokens: 8, output_tokens: 2 } }
    },
  }
  return user
}

function suite(definition: Partial<SuiteDefinition>, seen: ScorerArgs[] = []) {
  return suiteOf({
    cases: [],
    target: assistant().target,
    scorers: [{ name: 'refunded', score: (args) => (seen.push(args), String(args.output).includes('REFUND-OK')) }],
    concurrency: 2,
    ...definition,
  } as SuiteDefinition)
}

const doc = (r: CaseResult) => caseToJson(r) as unknown as CaseResult

describe('a scripted conversation', () => {
  it('asks the target once per line with the messages so far; the scorers see every turn', async () => {
    const { calls, target } = assistant()
    const seen: ScorerArgs[] = []
    const s = suite({ cases: [{ id: 'c', input: { script: ['hi', 'I want a refund', 'thanks'] } }], target, conversation: {} }, seen)
    const { results, targetCalls } = await execute({ suite: s, step: conversationStep })
    expect(calls.map((c) => c.messages.length)).toEqual([1, 3, 5])
    expect(calls.map((c) => c.ctx.turn)).toEqual([0, 1, 2])
    expect(calls[2]!.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'You said: hi' },
      { role: 'user', content: 'I want a refund' },
      { role: 'assistant', content: 'REFUND-OK for order 42' },
      { role: 'user', content: 'thanks' },
    ])
    expect(targetCalls).toBe(3)
    // the last answer is the output; the refund was two turns before: a transcript scorer would see it
    expect(results[0]!.verdict).toBe('fail')
    expect(seen[0]!.output).toBe('Goodbye!')
    expect(seen[0]!.turns!.map((t) => t.content)).toEqual(['hi', 'You said: hi', 'I want a refund', 'REFUND-OK for order 42', 'thanks', 'Goodbye!'])
    expect(doc(results[0]!).samples[0]!.usage).toEqual({ input_tokens: 9, output_tokens: 3 })
  })

  it('a scorer that reads the transcript passes it; unrecorded, the document keeps roles and usage, not one word', async () => {
    const transcript = { name: 'transcript_check', score: (a: ScorerArgs) => (a.turns ?? []).some((t) => t.role === 'assistant' && String(t.content).includes('REFUND-OK')) }
    const s = suite({ cases: [{ id: 'c', input: { script: ['hi', 'I want a refund', 'thanks'] } }], scorers: [transcript], conversation: {} })
    const { results } = await execute({ suite: s, step: conversationStep })
    expect(results[0]!.verdict).toBe('pass')
    const written = JSON.stringify(caseToJson(results[0]!))
    for (const said of ['hi', 'refund', 'thanks', 'REFUND', 'Goodbye', 'You said']) expect(written).not.toContain(said)
    expect(doc(results[0]!).samples[0]!.turns!.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant'])
  })

  it('recorded, the document keeps every word; a target error names the turn', async () => {
    const recorded = suite({ cases: [{ id: 'c', input: { script: ['hi', 'refund'] } }], conversation: {}, recordResponses: true })
    const { results } = await execute({ suite: recorded, step: conversationStep })
    expect(doc(results[0]!).samples[0]!.turns!.map((t) => t.content)).toEqual(['hi', 'You said: hi', 'refund', 'REFUND-OK for order 42'])
    const failing = suite({
      cases: [{ id: 'c', input: { script: ['hi', 'refund'] } }],
      conversation: {},
      target: async (m: unknown) => {
        if ((m as unknown[]).length > 1) throw new Error('upstream 529')
        return 'hello'
      },
    })
    const errored = await execute({ suite: failing, step: conversationStep })
    expect(errored.results[0]!.error).toEqual({ cause: 'target', message: 'sample 0 of 1: turn 1: upstream 529' })
  })
})

describe('a simulated user', () => {
  it('speaks first, ends the conversation when it says so; its calls are in the user turns, its model pinned', async () => {
    const user = ruleUser()
    const { calls, target } = assistant()
    const s = suite({ cases: [{ id: 'c', input: { persona: 'terse', goal: 'a refund for order 42' } }], target, conversation: { user } })
    const { results, observed, targetCalls } = await execute({ suite: s, step: conversationStep })
    expect(results[0]!.verdict, results[0]!.error?.message).toBe('pass')
    expect(user.calls).toBe(3)
    expect(calls).toHaveLength(2)
    expect(targetCalls, "the budget's calls are every model call: the target's and the simulated user's").toBe(2 + 3)
    const turns = doc(results[0]!).samples[0]!.turns!
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(turns[4]!.usage).toEqual({ input_tokens: 9, output_tokens: 1 })
    expect(observed.judge_models).toEqual({ simulated_user: 'rules-v1' })
    const pricing = pricingFor(
      { 'rules-v1': { input: 1_000_000, output: 0 }, 'shop-v1': { input: 0, output: 0 } },
      observed,
      s.targetConfig,
      judgeConfigOf(s.scorers, s.conversation?.user),
    )
    expect(costOf(results, pricing).judge, 'the user turns priced as a judge').toBe(7 + 8 + 9)
  })

  it('a calls budget reserves every call a conversation may make (target turns and user messages) before it starts, and counts the agent steps inside turns', async () => {
    const user = ruleUser()
    const agent = {
      config: { model: 'shop-v1' },
      ask: async (m: unknown) => {
        const last = (m as ChatMessage[]).at(-1)!.content
        return { output: /refund/.test(last) ? 'REFUND-OK' : 'hm', steps: [{ type: 'model' as const }, { type: 'tool' as const, name: 'find_order' }, { type: 'model' as const }] }
      },
    }
    const s = suite({ cases: [{ id: 'c', input: { goal: 'a refund', maxTurns: 2 } }], target: agent, conversation: { user } })
    // maxTurns 2: two answers and two user messages may be asked for; three calls cannot start it
    await expect(execute({ suite: s, step: conversationStep, budget: { calls: 3 } })).rejects.toBeInstanceOf(BudgetStop)
    expect(user.calls, 'nothing was asked').toBe(0)
    const { results, targetCalls } = await execute({ suite: s, step: conversationStep, budget: { calls: 4 } })
    expect(results[0]!.verdict, results[0]!.error?.message).toBe('pass')
    expect(targetCalls, 'two turns of two model calls each, two user messages').toBe(2 * 2 + 2)
    expect(conversationCallsOf({ script: ['a', 'b', 'c'] }, undefined)).toBe(3)
    expect(conversationCallsOf({ goal: 'x' }, { maxTurns: 4 })).toBe(8)
  })

  it('stops at the turn limit: the case’s maxTurns, else the user’s', async () => {
    const user = ruleUser()
    const stubborn = { config: {}, ask: async () => ({ output: 'no' }) }
    const s = suite({
      cases: [
        { id: 'two', input: { goal: 'x', maxTurns: 2 } },
        { id: 'default', input: { goal: 'x' } },
      ],
      target: stubborn,
      conversation: { user },
    })
    const { results, targetCalls } = await execute({ suite: s, step: conversationStep })
    expect(results.map((r) => r.samples[0]!.turns!.length)).toEqual([4, 10])
    expect(targetCalls, 'target and user calls').toBe(2 + 2 + 5 + 5)
  })

  it('is in the judge config: another user model is another config_hash; a suite without one keeps its hash', async () => {
    const a = suite({ cases: [{ id: 'c', input: { goal: 'x' } }], conversation: { user: ruleUser({ model: 'rules-v1' }) } })
    const b = suite({ cases: [{ id: 'c', input: { goal: 'x' } }], conversation: { user: ruleUser({ model: 'rules-v2' }) } })
    const scripted = suite({ cases: [{ id: 'c', input: { script: ['x'] } }], conversation: {} })
    expect(suiteIdentity(a).configHash).not.toBe(suiteIdentity(b).configHash)
    expect(judgeConfigOf(a.scorers, a.conversation?.user).simulated_user).toEqual({ model: 'rules-v1' })
    expect(suiteIdentity(scripted).configHash).toBe(configHash(scripted.rules, scripted.scorers))
    expect(judgeConfigOf(scripted.scorers)).not.toHaveProperty('simulated_user')
  })
})

describe('refused before any call', () => {
  it.each<[string, Partial<SuiteDefinition>, string]>([
    ['an input that is no conversation', { cases: [{ id: 'c', input: 'hi' }], conversation: {} }, 'cases.0.input (case "c") must be { script'],
    ['a simulated case without a user', { cases: [{ id: 'c', input: { goal: 'x' } }], conversation: {} }, 'asks for a simulated user'],
    ['a script and a goal', { cases: [{ id: 'c', input: { script: ['a'], goal: 'x' } }], conversation: {} }, 'has both a script and a simulated user'],
    ['an empty script', { cases: [{ id: 'c', input: { script: [] } }], conversation: {} }, 'script must be a non-empty list'],
    ['a user of the wrong shape', { cases: [{ id: 'c', input: { goal: 'x' } }], conversation: { user: {} as SimulatedUser } }, 'conversation.user must come from simulatedUser()'],
    [
      'a scorer named as the user',
      { cases: [{ id: 'c', input: { goal: 'x' } }], conversation: { user: ruleUser() }, scorers: [{ name: 'simulated_user', score: () => true }] },
      'has a scorer named "simulated_user"',
    ],
  ])('%s', (_label, definition, words) => {
    expect(() => suite(definition)).toThrow(words)
  })
})

describe('simulatedUser() on a chat model', () => {
  it('tells the model its persona, goal and stop word, reads the transcript to it, and ends on the stop word', async () => {
    const asked: ChatMessage[][] = []
    const replies = ['Hi, my parcel is late', 'Where is it? [DONE]']
    const model = {
      config: { provider: 'rules', model: 'rules-v3' },
      complete: async (r: { messages: readonly ChatMessage[] }) => (asked.push([...r.messages]), { text: replies[asked.length - 1]!, model: 'rules-v3', usage: undefined }),
      stats: () => ({ calls: 0, attempts: 0, retried: {}, gaveUp: 0, failed: 0 }),
    }
    const user = simulatedUser({ model, maxTurns: 3 })
    expect(user.config).toEqual({ model: { provider: 'rules', model: 'rules-v3' }, max_turns: 3, stop: '[DONE]', template: 'digline-simulated-user-v1' })
    const signal = new AbortController().signal
    expect(await user.next({ persona: 'an impatient buyer', goal: 'find parcel 7', turns: [], signal })).toEqual({ text: 'Hi, my parcel is late', done: false, model: 'rules-v3' })
    expect(asked[0]![0]!.content).toContain('Persona: an impatient buyer')
    expect(asked[0]![0]!.content).toContain('Goal: find parcel 7')
    expect(asked[0]![0]!.content).toContain('[DONE]')
    const turns = [
      { role: 'user' as const, content: 'Hi, my parcel is late' },
      { role: 'assistant' as const, content: { text: 'It left on Monday' } },
    ]
    expect(await user.next({ persona: 'x', goal: 'y', turns, signal })).toEqual({ text: 'Where is it?', done: true, model: 'rules-v3' })
    expect(asked[1]![1]!.content).toBe('The conversation so far:\n\nYou: Hi, my parcel is late\n\nAssistant: {"text":"It left on Monday"}\n\nWrite your next message.')
    expect(() => simulatedUser({ model, maxTurns: 0 })).toThrow('maxTurns')
    expect(() => simulatedUser({ model: {} as never })).toThrow('simulatedUser(): model')
  })
})
