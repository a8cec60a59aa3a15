// The agent adapters (SPEC §16) through the real `openai` SDK and the real `ai` + `@ai-sdk/openai`
// against the loopback chat server, which scripts tool calls from the conversation it is sent: every
// model call of an agent is counted by the in-flight cap and the budget, usage is the sum over the
// model calls, each tool runs once per call the model asked for (counted), and the document keeps a
// tool's arguments and result only when responses are recorded.
import { createOpenAI } from '@ai-sdk/openai'
import { tool } from 'ai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { serializeCase } from '../../../src/document/serialize.js'
import { BudgetStop } from '../../../src/driver/budget.js'
import { execute } from '../../../src/driver/execute.js'
import { inFlightSlots } from '../../../src/models/in-flight.js'
import { aiSdkAgent, openaiAgent, type AgentTools } from '../../../src/models/index.js'
import { InvalidModelOptionsError } from '../../../src/models/errors.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../../helpers/chat-server.js'
import { suiteOf } from '../driver/fixture.js'

const SECRET_CITY = 'Zyxville-ARG-7'
let server: ChatServer

type Msg = { role: string; content: string | null; tool_calls?: unknown[] }

/** The scripted agent: look the city up, then ask for its weather, then answer; a tool error is answered at once. */
function agentScript(request: SeenRequest): Step {
  const messages = (request.body.messages ?? []) as Msg[]
  const last = messages.at(-1)!
  const usage = { prompt_tokens: 10 * messages.length, completion_tokens: 3 }
  const city = (messages.find((m) => m.role === 'user')?.content ?? '').replace(/^weather in /, '')
  if (city.startsWith('loop')) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'lookup', arguments: { city } }] }
  if (last.role === 'user') return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'lookup', arguments: { city } }] }
  const toolTurns = messages.filter((m) => m.role === 'tool').length
  if (last.content?.includes('"error"')) return { reply: `sorry: ${last.content}`, usage, model: 'agent-v1-2026' }
  if (toolTurns === 1) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'weather', arguments: { station: JSON.parse(last.content!).station } }] }
  return { reply: `It is ${JSON.parse(last.content!).temp} degrees in ${city}`, usage, model: 'agent-v1-2026' }
}

beforeAll(async () => {
  server = await startChatServer(agentScript)
})
afterAll(() => server.close())

function countedTools() {
  const ran: string[] = []
  const tools: AgentTools = {
    lookup: {
      description: 'Finds the weather station of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args: { city: string }) => {
        ran.push(`lookup ${args.city}`)
        if (args.city.startsWith('Atlantis')) throw new Error(`no city ${args.city}`)
        return { station: `st-${args.city}` }
      },
    },
    weather: {
      parameters: { type: 'object', properties: { station: { type: 'string' } }, required: ['station'] },
      execute: (args: { station: string }) => {
        ran.push(`weather ${args.station}`)
        return { temp: 21 }
      },
    },
  }
  return { tools, ran }
}

const cases = [
  { id: 'lima', input: 'weather in Lima', expected: 'It is 21 degrees in Lima' },
  { id: 'secret', input: `weather in ${SECRET_CITY}`, expected: `It is 21 degrees in ${SECRET_CITY}` },
]

function run(target: SuiteDefinition['target'], more: Partial<SuiteDefinition> = {}) {
  return execute({ suite: suiteOf({ cases, target, recordResponses: true, ...more }) })
}

const from = () => server.requests.length

test('openaiAgent: the chat loop with tools and tool_calls; each tool runs once per call, every step is in the answer, usage is their sum', async () => {
  const { tools, ran } = countedTools()
  const start = from()
  const agent = openaiAgent({ model: 'agent-v1', baseURL: server.url, tools, maxSteps: 5, temperature: 0 })
  expect(agent.config).toMatchObject({
    provider: 'openai-compatible',
    model: 'agent-v1',
    max_steps: 5,
    tools: [{ name: 'lookup', description: 'Finds the weather station of a city' }, { name: 'weather' }],
  })
  const { results, targetCalls, observed } = await run(agent)
  expect(results.map((r) => r.verdict)).toEqual(['pass', 'pass'])
  expect(ran.sort()).toEqual([`lookup Lima`, `lookup ${SECRET_CITY}`, `weather st-Lima`, `weather st-${SECRET_CITY}`])
  expect(server.requests.length - start, 'three model calls per answer').toBe(6)
  expect(targetCalls, 'the budget counts every model call').toBe(6)
  expect(observed.target_model).toBe('agent-v1-2026')
  const sample = results[0]!.samples[0]!
  expect(sample.steps).toEqual([
    { type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 10, output_tokens: 3 }, latency_ms: expect.any(Number) },
    { type: 'tool', name: 'lookup', ok: true, latency_ms: expect.any(Number), arguments: { city: 'Lima' }, result: { station: 'st-Lima' } },
    { type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 30, output_tokens: 3 }, latency_ms: expect.any(Number) },
    { type: 'tool', name: 'weather', ok: true, latency_ms: expect.any(Number), arguments: { station: 'st-Lima' }, result: { temp: 21 } },
    { type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 50, output_tokens: 3 }, latency_ms: expect.any(Number) },
  ])
  expect(sample.usage).toEqual({ input_tokens: 90, output_tokens: 9 })
  // The loop sent the tools, the assistant's tool_calls and the tool's result back.
  const third = server.requests.slice(start).find((r) => r.user === 'weather in Lima' && (r.body.messages ?? []).length === 5)!
  expect(third.body.tools).toEqual([
    { type: 'function', function: { name: 'lookup', description: 'Finds the weather station of a city', parameters: expect.any(Object) } },
    { type: 'function', function: { name: 'weather', parameters: expect.any(Object) } },
  ])
  expect((third.body.messages as Msg[]).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool'])
  expect(third.body.messages![4]!.content).toBe('{"temp":21}')
})

test('aiSdkAgent: generateText with tools over several steps, through the real ai and @ai-sdk/openai; the same steps and usage', async () => {
  const ran: string[] = []
  const tools = {
    lookup: tool({
      description: 'Finds the weather station of a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => (ran.push(`lookup ${city}`), { station: `st-${city}` }),
    }),
    weather: tool({ inputSchema: z.object({ station: z.string() }), execute: async ({ station }) => (ran.push(`weather ${station}`), { temp: 21 }) }),
  }
  const start = from()
  const pool = `ai-sdk-agents-${process.pid}`
  const agent = aiSdkAgent(createOpenAI({ baseURL: server.url, apiKey: 'none' }).chat('agent-v1'), { tools, maxSteps: 5, pool })
  expect(agent.config).toMatchObject({
    provider: 'openai.chat',
    model: 'agent-v1',
    max_steps: 5,
    tools: [{ name: 'lookup', description: 'Finds the weather station of a city' }, { name: 'weather' }],
  })
  const { results, targetCalls } = await run(agent)
  expect(
    results.map((r) => r.verdict),
    results[0]!.error?.message,
  ).toEqual(['pass', 'pass'])
  expect(ran.sort()).toEqual([`lookup Lima`, `lookup ${SECRET_CITY}`, `weather st-Lima`, `weather st-${SECRET_CITY}`])
  expect(server.requests.length - start).toBe(6)
  expect(targetCalls).toBe(6)
  expect(
    inFlightSlots()
      .book.summary()
      .find((p) => p.pool === pool),
    'each step took its own slot',
  ).toMatchObject({ calls: 6 })
  const sample = results[0]!.samples[0]!
  expect(sample.steps!.map((s) => (s.type === 'model' ? 'model' : `${s.name}(${JSON.stringify(s.arguments)})=${JSON.stringify(s.result)}`))).toEqual([
    'model',
    'lookup({"city":"Lima"})={"station":"st-Lima"}',
    'model',
    'weather({"station":"st-Lima"})={"temp":21}',
    'model',
  ])
  expect(sample.steps![0]).toEqual({ type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 10, output_tokens: 3 }, latency_ms: expect.any(Number) })
  expect(sample.steps![1]).toMatchObject({ latency_ms: expect.any(Number), ok: true })
  expect(sample.usage).toEqual({ input_tokens: 90, output_tokens: 9 })
})

test('a tool that throws is an error step (ok: false) the model is told of, and the loop goes on; maxSteps ends a loop that never stops', async () => {
  const { tools, ran } = countedTools()
  const agent = openaiAgent({ model: 'agent-v1', baseURL: server.url, tools, maxSteps: 3 })
  const { results } = await execute({
    suite: suiteOf({
      cases: [
        { id: 'atlantis', input: 'weather in Atlantis', expected: 'x' },
        { id: 'loop', input: 'weather in loop', expected: 'x' },
      ],
      target: agent,
      recordResponses: true,
    }),
  })
  const [atlantis, loop] = results.map((r) => r.samples[0]!)
  expect(atlantis!.steps!.map((s) => s.type)).toEqual(['model', 'tool', 'model'])
  expect(atlantis!.steps![1]).toMatchObject({ type: 'tool', name: 'lookup', ok: false, error: 'no city Atlantis' })
  expect(atlantis!.output).toBe('sorry: {"error":"no city Atlantis"}')
  expect(
    loop!.steps!.map((s) => s.type),
    'three model calls, each asking for a tool',
  ).toEqual(['model', 'tool', 'model', 'tool', 'model', 'tool'])
  expect(ran.filter((r) => r === 'lookup loop')).toHaveLength(3)
})

test('the in-flight cap counts every model call of an agent: at most one in flight at concurrency 4, and the pool saw each call', async () => {
  const { tools } = countedTools()
  const pool = `agents-cap-${process.pid}`
  const start = from()
  const agent = openaiAgent({ model: 'agent-v1', baseURL: server.url, tools, maxInFlight: 1, pool })
  const many = Array.from({ length: 4 }, (_, i) => ({ id: `c${i}`, input: `weather in City${i}`, expected: `It is 21 degrees in City${i}` }))
  const { results } = await execute({ suite: suiteOf({ cases: many, target: agent, concurrency: 4 }) })
  expect(results.every((r) => r.verdict === 'pass')).toBe(true)
  const seen = server.requests.slice(start)
  expect(seen).toHaveLength(12)
  expect(Math.max(...seen.map((r) => r.inFlightAtStart))).toBe(1)
  expect(
    inFlightSlots()
      .book.summary()
      .find((p) => p.pool === pool),
  ).toMatchObject({ calls: 12, peak: 1 })
})

test('a calls budget counts every model call: agents of three calls each stop a budget of 4 after two cases', async () => {
  const { tools } = countedTools()
  const agent = openaiAgent({ model: 'agent-v1', baseURL: server.url, tools })
  const many = Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, input: `weather in City${i}`, expected: `It is 21 degrees in City${i}` }))
  const stop = await execute({ suite: suiteOf({ cases: many, target: agent }), budget: { calls: 4 } }).catch((e: unknown) => e)
  expect(stop).toBeInstanceOf(BudgetStop)
  expect((stop as BudgetStop).spent.calls).toBe(6)
  expect((stop as BudgetStop).unjudged).toBe(3)
})

test('responses not recorded: the document keeps model ids, usage, durations, tool names and ok, never a tool argument, result or error', async () => {
  const { tools } = countedTools()
  const agent = openaiAgent({ model: 'agent-v1', baseURL: server.url, tools })
  const { results } = await execute({
    suite: suiteOf({ cases: [...cases, { id: 'atlantis', input: `weather in Atlantis-${SECRET_CITY}`, expected: 'x' }], target: agent, recordResponses: false }),
  })
  const text = results.map(serializeCase).join('\n')
  expect(text).not.toContain(SECRET_CITY)
  expect(text).not.toContain('st-')
  expect(results[1]!.samples[0]!.steps!.map((s) => Object.keys(s).join(','))).toEqual([
    'type,model,usage,latency_ms',
    'type,name,ok,latency_ms',
    'type,model,usage,latency_ms',
    'type,name,ok,latency_ms',
    'type,model,usage,latency_ms',
  ])
  expect(results[2]!.samples[0]!.steps![1]).toEqual({ type: 'tool', name: 'lookup', ok: false, latency_ms: expect.any(Number) })
})

test('the adapters refuse bad tools and step limits by name', () => {
  expect(() => openaiAgent({ model: 'm', baseURL: server.url, tools: { 'bad name': { parameters: {}, execute: () => 1 } } })).toThrow(InvalidModelOptionsError)
  expect(() => openaiAgent({ model: 'm', baseURL: server.url, tools: {}, maxSteps: 0 })).toThrow(/maxSteps must be an integer from 1 to 1000/)
  expect(() => aiSdkAgent('gateway/model', { tools: {} })).toThrow(/must be an AI SDK language model object/)
})
