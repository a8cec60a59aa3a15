// The OpenAI-compatible adapter through the real `openai` SDK against the loopback chat server.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openaiModel, ModelCallError } from '../../../src/models/index.js'
import { MissingApiKeyError, InvalidModelOptionsError } from '../../../src/models/errors.js'
import { startChatServer, type ChatServer, type Step } from '../../helpers/chat-server.js'

const KEY = 'sk-test-DO-NOT-LEAK-7f3a9c2e5b1d'
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

test('a reply: its text, the model the server says answered, the usage; the request carries the declared sampling and the key', async () => {
  const seen = scripted([{ reply: 'Paris', model: 'gpt-test-2026-01-01', usage: { prompt_tokens: 21, completion_tokens: 3 } }])
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, temperature: 0.2, maxTokens: 16, seed: 7 })
  const reply = await model.complete({
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'capital of France?' },
    ],
  })
  expect(reply).toEqual({ text: 'Paris', model: 'gpt-test-2026-01-01', usage: { input_tokens: 21, output_tokens: 3 } })
  expect(seen()).toHaveLength(1)
  const [request] = seen()
  expect(request!.body).toMatchObject({
    model: 'gpt-test',
    temperature: 0.2,
    max_tokens: 16,
    seed: 7,
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'capital of France?' },
    ],
  })
  expect(request!.body.response_format).toBeUndefined()
  expect(request!.authorization).toBe(`Bearer ${KEY}`)
  expect(model.config).toEqual({ provider: 'openai-compatible', model: 'gpt-test', base_url: server.url, temperature: 0.2, max_tokens: 16, seed: 7 })
  expect(JSON.stringify(model.config)).not.toContain(KEY)
  expect(model.stats()).toEqual({ calls: 1, attempts: 1, retried: {}, gaveUp: 0, failed: 0 })
})

test('429 with Retry-After, 500, 529 and a dropped connection are each retried; Retry-After is honoured', async () => {
  const seen = scripted([{ status: 429, headers: { 'retry-after': '1' } }, { status: 500 }, { status: 529 }, { drop: true }, { reply: 'at last' }])
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, retry: FAST })
  const reply = await model.complete({ messages: [{ role: 'user', content: 'hi' }] })
  expect(reply.text).toBe('at last')
  expect(seen()).toHaveLength(5)
  expect(model.stats()).toEqual({ calls: 1, attempts: 5, retried: { '429': 1, '500': 1, '529': 1, network: 1 }, gaveUp: 0, failed: 0 })
  const gaps = seen()
    .slice(1)
    .map((r, i) => r.startedAt - seen()[i]!.endedAt!)
  // Retry-After: 1 asked for a second; the other waits are backoffs of a few ms.
  expect(gaps[0]).toBeGreaterThanOrEqual(950)
  expect(gaps[0]).toBeGreaterThan(3 * Math.max(...gaps.slice(1)))
})

test('still failing at the ceiling: exactly `attempts` requests, then a ModelCallError naming each failure', async () => {
  const seen = scripted([], { status: 503 })
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, retry: { attempts: 3, baseMs: 1, maxMs: 2 } })
  const error = await model.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ModelCallError)
  expect((error as Error).message).toMatch(/HTTP 503 .*gave up after 3 attempts \(503, 503, 503\)/)
  expect(seen()).toHaveLength(3)
  expect(model.stats()).toMatchObject({ calls: 1, attempts: 3, retried: { '503': 2 }, gaveUp: 1 })
})

test('a 400 is not retried', async () => {
  const seen = scripted([{ status: 400, message: 'bad request' }])
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, retry: FAST })
  await expect(model.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/HTTP 400 bad request/)
  expect(seen()).toHaveLength(1)
  expect(model.stats()).toMatchObject({ attempts: 1, failed: 1 })
})

test('an error that echoes the key is redacted before it leaves the adapter', async () => {
  server.script = (r) => ({ status: 401, message: `Incorrect API key provided: ${r.authorization}` })
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY })
  const error = (await model.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as Error
  expect(error.message).toContain('Incorrect API key provided: Bearer [redacted]')
  expect(error.message).not.toContain(KEY)
})

test('a 400 body that echoes a prefix of the key (given, or read from the environment) has the prefix redacted', async () => {
  const LIVE = 'sk-live-SUPERSECRET-9f8e7d6c5b4a'
  server.script = (r) => ({
    status: 400,
    message: `invalid key: your key prefix ${r.authorization!.slice('Bearer '.length, 'Bearer '.length + 13)}... is not enabled for this model`,
  })
  for (const model of [openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: LIVE }), openaiModel({ model: 'gpt-test', baseURL: server.url }, { OPENAI_API_KEY: LIVE })]) {
    const error = (await model.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(ModelCallError)
    expect(error.message).toContain('invalid key: your key prefix [redacted]... is not enabled for this model')
    expect(error.message).not.toContain('sk-live-S')
  }
})

test('an attempt that takes longer than timeoutMs is retried as a timeout', async () => {
  const seen = scripted([{ reply: 'late', latencyMs: 300 }, { reply: 'on time' }])
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, timeoutMs: 100, retry: FAST })
  expect((await model.complete({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('on time')
  expect(seen()).toHaveLength(2)
  expect(model.stats().retried).toEqual({ timeout: 1 })
})

test('an abort during the backoff stops at once, with no further request', async () => {
  const seen = scripted([], { status: 500 })
  const model = openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, retry: { attempts: 5, baseMs: 60_000, maxMs: 60_000 } })
  const controller = new AbortController()
  const pending = model.complete({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal })
  await expect.poll(() => seen().length).toBe(1)
  controller.abort(new Error('stopped by the test'))
  await expect(pending).rejects.toThrow('stopped by the test')
  expect(seen()).toHaveLength(1)
})

test('a JSON reply is asked for with json_schema by default, json_object or nothing when configured', async () => {
  const json = { name: 'judgement', schema: { type: 'object', properties: { score: { type: 'integer' } }, required: ['score'], additionalProperties: false } }
  const seen = scripted([], { reply: '{"score":1}' })
  for (const structuredOutput of ['json_schema', 'json_object', 'none'] as const) {
    await openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, structuredOutput }).complete({ messages: [{ role: 'user', content: 'hi' }], json })
  }
  expect(seen().map((r) => r.body.response_format)).toEqual([{ type: 'json_schema', json_schema: { ...json, strict: true } }, { type: 'json_object' }, undefined])
})

test('the key comes from OPENAI_API_KEY (or apiKeyEnv); none for the default endpoint is refused, a local server gets a placeholder', async () => {
  expect(() => openaiModel({ model: 'gpt-test' }, {})).toThrow(MissingApiKeyError)
  expect(() => openaiModel({ model: 'gpt-test', apiKeyEnv: 'MY_KEY' }, {})).toThrow(/MY_KEY is not set/)
  const seen = scripted([], { reply: 'ok' })
  await openaiModel({ model: 'gpt-test', baseURL: server.url }, { OPENAI_API_KEY: KEY }).complete({ messages: [{ role: 'user', content: 'a' }] })
  await openaiModel({ model: 'gpt-test', baseURL: server.url, apiKeyEnv: 'MY_KEY' }, { MY_KEY: 'sk-other-key-123456' }).complete({ messages: [{ role: 'user', content: 'b' }] })
  await openaiModel({ model: 'gpt-test', baseURL: server.url }, {}).complete({ messages: [{ role: 'user', content: 'c' }] })
  expect(seen().map((r) => r.authorization)).toEqual([`Bearer ${KEY}`, 'Bearer sk-other-key-123456', 'Bearer no-key'])
})

test('invalid options are refused by name before any call', () => {
  const base = { baseURL: 'http://127.0.0.1:9/v1', apiKey: KEY }
  expect(() => openaiModel({ ...base, model: '' })).toThrow(InvalidModelOptionsError)
  expect(() => openaiModel({ ...base, model: 'm', retry: { attempts: 0 } })).toThrow(/retry.attempts/)
  expect(() => openaiModel({ ...base, model: 'm', maxInFlight: 0 })).toThrow(/maxInFlight/)
  expect(() => openaiModel({ ...base, model: 'm', baseURL: 'not a url' })).toThrow(/baseURL/)
  expect(() => openaiModel({ ...base, model: 'm', extraBody: { api_key: KEY } })).toThrow(/holds the API key/)
  expect(openaiModel({ ...base, model: 'm', baseURL: 'https://user:pw@example.test/v1/?api-key=x' }).config.base_url).toBe('https://example.test/v1')
})
