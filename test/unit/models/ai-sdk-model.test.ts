// The AI SDK adapter through the real `ai` and `@ai-sdk/openai` against the loopback chat server.
import { createOpenAI } from '@ai-sdk/openai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { aiSdkModel, ModelCallError } from '../../../src/models/index.js'
import { InvalidModelOptionsError } from '../../../src/models/errors.js'
import { startChatServer, type ChatServer, type Step } from '../../helpers/chat-server.js'

const KEY = 'sk-aisdk-DO-NOT-LEAK-41c0ffee9d'
let server: ChatServer
const FAST = { attempts: 5, baseMs: 1, maxMs: 5000 }

beforeAll(async () => {
  server = await startChatServer(() => ({ reply: 'ok' }))
})
afterAll(() => server.close())

function scripted(steps: Step[], then: Step = { reply: 'ok' }) {
  const start = server.requests.length
  server.script = (r) => steps[r.n - start - 1] ?? then
  return () => server.requests.slice(start)
}

const chat = (id = 'gpt-test') => createOpenAI({ baseURL: server.url, apiKey: KEY }).chat(id)

test('a reply: its text, the model the server says answered, the usage; system messages go to `system`', async () => {
  const seen = scripted([{ reply: 'Paris', model: 'gpt-test-2026-01-01', usage: { prompt_tokens: 30, completion_tokens: 4 } }])
  const model = aiSdkModel(chat(), { temperature: 0, maxTokens: 20 })
  const reply = await model.complete({
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'capital of France?' },
    ],
  })
  expect(reply).toEqual({ text: 'Paris', model: 'gpt-test-2026-01-01', usage: { input_tokens: 30, output_tokens: 4 } })
  expect(seen()).toHaveLength(1)
  expect(seen()[0]!.body).toMatchObject({
    model: 'gpt-test',
    temperature: 0,
    max_tokens: 20,
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'capital of France?' },
    ],
  })
  expect(model.config).toEqual({ provider: 'openai.chat', model: 'gpt-test', temperature: 0, max_tokens: 20 })
})

test('429 with retry-after-ms, 529 and a dropped connection are retried by digline, not by the SDK', async () => {
  const seen = scripted([{ status: 429, headers: { 'retry-after-ms': '200' } }, { status: 529 }, { drop: true }, { reply: 'at last' }])
  const model = aiSdkModel(chat(), { retry: FAST })
  expect((await model.complete({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('at last')
  expect(seen()).toHaveLength(4)
  expect(model.stats()).toEqual({ calls: 1, attempts: 4, retried: { '429': 1, '529': 1, network: 1 }, gaveUp: 0, failed: 0 })
  const gaps = seen()
    .slice(1)
    .map((r, i) => r.startedAt - seen()[i]!.endedAt!)
  expect(gaps[0]).toBeGreaterThanOrEqual(190)
})

test('still failing at the ceiling: exactly `attempts` requests, then a ModelCallError', async () => {
  const seen = scripted([], { status: 500 })
  const model = aiSdkModel(chat(), { retry: { attempts: 2, baseMs: 1, maxMs: 2 } })
  const error = await model.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ModelCallError)
  expect((error as Error).message).toMatch(/gave up after 2 attempts \(500, 500\)/)
  expect(seen()).toHaveLength(2)
})

test('a JSON reply is asked for as structured output; one that does not parse comes back as text for the judge to refuse', async () => {
  const json = { name: 'judgement', schema: { type: 'object', properties: { score: { type: 'integer' } }, required: ['score'], additionalProperties: false } }
  const seen = scripted([{ reply: '{"score":4}' }, { reply: 'Score: four out of five', model: 'judge-x' }])
  const model = aiSdkModel(chat())
  expect((await model.complete({ messages: [{ role: 'user', content: 'a' }], json })).text).toBe('{"score":4}')
  expect(await model.complete({ messages: [{ role: 'user', content: 'b' }], json })).toEqual({
    text: 'Score: four out of five',
    model: 'judge-x',
    usage: { input_tokens: 10, output_tokens: 2 },
  })
  expect(seen()[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'judgement', schema: json.schema } })
})

test('what is not a language model is refused by name', () => {
  expect(() => aiSdkModel({} as never)).toThrow(InvalidModelOptionsError)
  expect(() => aiSdkModel(chat(), { retry: { attempts: 1.5 } })).toThrow(/retry.attempts/)
})
