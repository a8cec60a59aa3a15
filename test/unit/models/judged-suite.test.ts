// A chat target and an LLM judge in a real suite (resolveSuite + execute), through the real `openai`
// SDK against the loopback chat server: verdicts, error causes, pinned identities, usage, config_hash.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatTarget, openaiModel } from '../../../src/models/index.js'
import { llmJudge } from '../../../src/scorers/llm-judge.js'
import { JUDGE_TEMPLATE } from '../../../src/scorers/judge-prompt.js'
import { resolveSuite, suiteIdentity } from '../../../src/suite/resolve-suite.js'
import { execute } from '../../../src/driver/execute.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { pricingFor } from '../../../src/driver/cost.js'
import { judgeConfigOf } from '../../../src/suite/hashing.js'
import { serializeCase } from '../../../src/document/serialize.js'
import { aggregatesSchema, caseResultSchema } from '../../../src/document/schema.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../../helpers/chat-server.js'

const KEY = 'sk-judge-DO-NOT-LEAK-0a1b2c3d4e'
let server: ChatServer

beforeAll(async () => {
  server = await startChatServer(() => ({ reply: 'ok' }))
})
afterAll(() => server.close())

const isJudge = (r: SeenRequest) => r.body.response_format !== undefined
const model = (extra: object = {}) => openaiModel({ model: 'gpt-test', baseURL: server.url, apiKey: KEY, retry: { attempts: 2, baseMs: 1, maxMs: 2 }, ...extra })
const judgement = (score: number, reasoning = 'fine') => JSON.stringify({ reasoning, score })
const cases = (ids: string[]) => ids.map((id) => ({ id, input: `question ${id}`, expected: `answer ${id}` }))

function suite(ids: string[], judgeModel = model(), extra: object = {}) {
  return resolveSuite({
    name: 'judged',
    cases: cases(ids),
    target: chatTarget(model(), { system: 'answer briefly', config: { prompt_version: 'v1' } }),
    scorers: [llmJudge({ model: judgeModel, rubric: 'The answer matches the reference.' })],
    ...extra,
  })
}

test('the judge scores on its scale, passes at 4 of 5 by default, and reports its model and usage', async () => {
  server.script = (r) =>
    isJudge(r)
      ? { reply: judgement(r.user.includes('answer a') ? 4 : 3, 'close enough'), model: 'judge-1', usage: { prompt_tokens: 50, completion_tokens: 9 } }
      : { reply: `answer ${r.user.slice(-1)}`, model: 'target-1' }
  const s = suite(['a', 'b'], model(), { recordResponses: true })
  const { results, observed } = await execute({ suite: s })
  expect(results.map((r) => [r.case_id, r.verdict, r.score])).toEqual([
    ['a', 'pass', 0.75],
    ['b', 'fail', 0.5],
  ])
  expect(results[1]!.samples[0]!.scorers[0]).toEqual({ name: 'llm_judge', pass: false, score: 0.5, reason: '3/5: close enough', usage: { input_tokens: 50, output_tokens: 9 } })
  expect(results[0]!.samples[0]!.usage).toEqual({ input_tokens: 10, output_tokens: 2 })
  expect(observed).toEqual({ target_model: 'target-1', judge_models: { llm_judge: 'judge-1' } })
  expect(aggregate(results, s.rules)).toMatchObject({ usage: { input_tokens: 20, output_tokens: 4 }, judge_usage: { input_tokens: 100, output_tokens: 18 } })
  const judgeRequest = server.requests.filter(isJudge).at(-1)!
  expect(judgeRequest.body.messages![0]!.content).toContain('The answer matches the reference.')
  expect(judgeRequest.user).toContain('Reference answer:\nanswer b')
  expect(s.targetConfig).toEqual({ provider: 'openai-compatible', model: 'gpt-test', base_url: server.url, system: 'answer briefly', prompt_version: 'v1' })
  expect(s.scorers[0]!.config).toEqual({
    model: { provider: 'openai-compatible', model: 'gpt-test', base_url: server.url },
    rubric: 'The answer matches the reference.',
    scale: { min: 1, max: 5 },
    pass_at: 4,
    template: JUDGE_TEMPLATE,
  })
})

test("the judge's declared config is part of config_hash; retries and the in-flight cap are not", () => {
  const hash = (judgeModel = model(), rubric = 'r') =>
    suiteIdentity(resolveSuite({ name: 'h', cases: cases(['a']), target: chatTarget(model()), scorers: [llmJudge({ model: judgeModel, rubric })] })).configHash
  expect(hash()).toBe(hash(model({ retry: { attempts: 9 }, maxInFlight: 1, timeoutMs: 5 })))
  expect(hash()).not.toBe(hash(model(), 'another rubric'))
  expect(hash()).not.toBe(hash(model({ model: 'gpt-other' })))
  expect(hash()).not.toBe(hash(model({ temperature: 0 })))
})

test('a judge reply that is not valid JSON, or out of scale, errors its case with cause scorer; a target failing past the ceiling errors with cause target', async () => {
  const judged: Record<string, Step> = { ok: { reply: judgement(5) }, prose: { reply: 'I would give it a 4.' }, big: { reply: judgement(9) } }
  server.script = (r) => {
    const id = r.user.match(/question (\w+)/)?.[1] ?? 'ok'
    if (isJudge(r)) return judged[id] ?? { reply: judgement(5) }
    return id === 'down' ? { status: 500 } : { reply: `answer ${id}` }
  }
  const before = server.requests.length
  const { results } = await execute({ suite: suite(['ok', 'prose', 'big', 'down'], model(), { recordResponses: true }) })
  const byId = Object.fromEntries(results.map((r) => [r.case_id, r]))
  expect(byId.ok!.verdict).toBe('pass')
  expect(byId.prose!.error).toEqual({
    cause: 'scorer',
    message: expect.stringContaining(`scorer "llm_judge": JudgeReplyError: the judge's reply is not valid JSON: "I would give it a 4."`),
  })
  expect(byId.big!.error).toEqual({ cause: 'scorer', message: expect.stringMatching(/JudgeReplyError: the judge's reply is not a judgement \(score must be .* at reply\.score\)/) })
  expect(byId.down!.error).toEqual({ cause: 'target', message: expect.stringMatching(/ModelCallError: .*HTTP 500 .*gave up after 2 attempts \(500, 500\)/) })
  // 3 target calls + 3 judge calls + 2 attempts for the failing target
  expect(server.requests.length - before).toBe(8)
  expect(JSON.stringify(results)).not.toContain(KEY)
})

test('a model id that changes mid-run errors the case where it changed, for the target and for the judge', async () => {
  let targetCalls = 0
  let judgeCalls = 0
  server.script = (r) =>
    isJudge(r)
      ? { reply: judgement(5), model: ++judgeCalls <= 3 ? 'judge-2026-01' : 'judge-2026-02' }
      : { reply: 'x', model: ++targetCalls <= 2 ? 'target-2026-01' : 'target-2026-02' }
  const { results, observed } = await execute({ suite: suite(['a', 'b', 'c', 'd']) })
  expect(results.map((r) => r.error?.cause ?? r.verdict)).toEqual(['pass', 'pass', 'target', 'target'])
  expect(results[2]!.error!.message).toContain('ObservedIdentityChangedError: the target\'s model changed within the run: first "target-2026-01", now "target-2026-02"')
  expect(observed.target_model).toBe('target-2026-01')

  targetCalls = 0
  judgeCalls = 0
  server.script = (r) => (isJudge(r) ? { reply: judgement(5), model: ++judgeCalls <= 1 ? 'judge-2026-01' : 'judge-2026-02' } : { reply: 'x', model: 'target-2026-01' })
  const second = await execute({ suite: suite(['a', 'b']) })
  expect(second.results.map((r) => r.error?.cause ?? r.verdict)).toEqual(['pass', 'scorer'])
  expect(second.results[1]!.error!.message).toContain(`judge "llm_judge"'s model changed within the run: first "judge-2026-01", now "judge-2026-02"`)
})

test('judge usage and the cost survive the journal and a re-read byte for byte', async () => {
  server.script = (r) => (isJudge(r) ? { reply: judgement(4), model: 'judge-1', usage: { prompt_tokens: 7, completion_tokens: 1 } } : { reply: 'x', model: 'target-1' })
  const s = suite(['a', 'b'], model(), { prices: { 'target-1': { input: 3, output: 15 }, 'gpt-test': { input: 1, output: 1 } } })
  const { results, observed } = await execute({ suite: s })
  const pricing = pricingFor(s.prices!, observed, s.targetConfig, judgeConfigOf(s.scorers))
  const aggregates = aggregate(results, s.rules, pricing)
  // target: 2 × (10 × 3 + 2 × 15); judge, priced by its declared model: 2 × (7 + 1)
  expect(aggregates.cost).toEqual({ target: 0.00012, judge: 0.000016, total: 0.000136, unpriced: [] })
  for (const result of results) expect(serializeCase(caseResultSchema.parse(JSON.parse(serializeCase(result))))).toBe(serializeCase(result))
  expect(JSON.stringify(aggregatesSchema.parse(JSON.parse(JSON.stringify(aggregates))))).toBe(JSON.stringify(aggregates))
})

test('a price table that is not { model: { input, output } } is refused when the suite loads', () => {
  expect(() => suite(['a'], model(), { prices: { 'gpt-test': { input: -1, output: 1 } } })).toThrow(/InvalidSuiteError|prices/)
  expect(() => suite(['a'], model(), { prices: { 'gpt-test': { in: 1, out: 1 } } })).toThrow(/prices/)
})

test("with recordResponses false, the judge's reasoning and an unreadable reply of it are not kept: they may repeat the answer", async () => {
  const judged: Record<string, Step> = {
    a: { reply: judgement(2, 'The response "answer a SECRET-PII" misses the point.') },
    prose: { reply: 'answer prose SECRET-PII deserves a 4.' },
  }
  server.script = (r) => {
    const id = r.user.match(/question (\w+)/)?.[1] ?? 'a'
    return isJudge(r) ? judged[id]! : { reply: `answer ${id} SECRET-PII` }
  }
  const { results } = await execute({ suite: suite(['a', 'prose']) })
  expect(results[0]!.samples[0]!.scorers[0]!.reason).toBe("2/5: the judge's reasoning is not kept, as answers are not recorded")
  expect(results[0]!.reason).toBe("0/1 samples passed; sample 0, llm_judge: 2/5: the judge's reasoning is not kept, as answers are not recorded")
  expect(results[1]!.error).toEqual({
    cause: 'scorer',
    message: `sample 0 of 1, scorer "llm_judge": JudgeReplyError: the judge's reply is not valid JSON (the reply is not quoted, as answers are not recorded)`,
  })
  expect(JSON.stringify(results)).not.toContain('SECRET-PII')
})
