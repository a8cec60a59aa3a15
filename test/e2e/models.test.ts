// Real `vitest run`s of suites whose target and judge are real models behind the loopback chat
// server, through the real `openai` SDK and the real AI SDK: request counts, retries, error causes,
// usage and cost in the run document, the estimate, the key kept out of everything, and the
// in-flight cap across two suites in two workers.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { makeProject, type Project } from '../helpers/project.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../helpers/chat-server.js'

const KEY = 'sk-e2e-DO-NOT-LEAK-5e1f0c4a7b2d9e8f'
let server: ChatServer

beforeAll(async () => {
  server = await startChatServer(() => ({ reply: 'ok' }))
})
afterAll(() => server.close())

/** Every file under dir, recursively, with its text. */
function filesUnder(dir: string): [string, string][] {
  const out: [string, string][] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path))
    else out.push([path, readFileSync(path, 'utf8')])
  }
  return out
}

const QA_SUITE = `import { evalSuite, scorers } from 'digline'
import { aiSdkModel, openaiTarget } from 'digline/models'
import { createOpenAI } from '@ai-sdk/openai'

const baseURL = process.env.CHAT_URL
const retry = { attempts: 3, baseMs: 1, maxMs: 2000 }
const judge = aiSdkModel(createOpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY }).chat('judge-mini'), { retry, pool: 'loopback' })

evalSuite({
  name: 'qa',
  cases: (process.env.CASES ?? '').split(',').map((id) => ({ id, input: 'question ' + id, expected: 'answer ' + id })),
  target: openaiTarget({ model: 'gpt-mini', baseURL, temperature: 0, retry, pool: 'loopback', system: 'Answer briefly.' }),
  scorers: [scorers.llmJudge({ model: judge, rubric: 'The answer matches the reference.' })],
  prices: { 'gpt-mini-2026-01-01': { input: 1, output: 4 }, 'judge-mini': { input: 0.5, output: 2 } },
  concurrency: 2,
})
`

describe('a judged run against an OpenAI-compatible endpoint', () => {
  let project: Project
  let first: Awaited<ReturnType<Project['vitest']>>
  const seen: SeenRequest[] = []
  const journalChecks: { legs: number; leaked: boolean }[] = []
  const CASES = ['ok1', 'ok2', 'rate', 'flaky', 'drop', 'down', 'prose', 'auth']

  beforeAll(async () => {
    project = makeProject({ 'evals/qa.eval.ts': QA_SUITE })
    const attempts = new Map<string, number>()
    const target: Record<string, Step[]> = {
      rate: [{ status: 429, headers: { 'retry-after-ms': '50' } }],
      flaky: [{ status: 500 }, { status: 529 }],
      drop: [{ drop: true }],
      down: [{ status: 503 }, { status: 503 }, { status: 503 }],
    }
    server.script = (r) => {
      seen.push(r)
      const id = r.user.match(/question (\w+)/)?.[1] ?? '?'
      if (r.body.response_format !== undefined) {
        if (id === 'ok2') {
          // Mid-run, with cases already journaled: the key must not be in the journal either.
          const files = filesUnder(join(project.dir, '.digline'))
          journalChecks.push({ legs: files.filter(([p]) => p.endsWith('.jsonl')).length, leaked: files.some(([, text]) => text.includes(KEY)) })
        }
        if (id === 'prose') return { reply: 'It deserves a 5.', model: 'judge-mini', usage: { prompt_tokens: 40, completion_tokens: 6 } }
        return { reply: JSON.stringify({ reasoning: 'matches the reference', score: 5 }), model: 'judge-mini', usage: { prompt_tokens: 40, completion_tokens: 6 } }
      }
      const n = (attempts.get(id) ?? 0) + 1
      attempts.set(id, n)
      if (id === 'auth') return { status: 401, message: `Incorrect API key provided: ${r.authorization}` }
      return target[id]?.[n - 1] ?? { reply: `answer ${id}`, model: 'gpt-mini-2026-01-01', usage: { prompt_tokens: 10, completion_tokens: 2 } }
    }
    first = await project.vitest([], { CHAT_URL: server.url, OPENAI_API_KEY: KEY, CASES: CASES.join(',') })
  })

  test('each failure is retried up to the ceiling; the requests are exactly the attempts', () => {
    expect(first.code, first.stdout + first.stderr).toBe(2)
    const targetRequests = seen.filter((r) => r.body.response_format === undefined)
    const judgeRequests = seen.filter((r) => r.body.response_format !== undefined)
    const per = (id: string) => targetRequests.filter((r) => r.user === `question ${id}`).length
    expect(CASES.map(per)).toEqual([1, 1, 2, 3, 2, 3, 1, 1])
    expect(judgeRequests.map((r) => r.user.match(/question (\w+)/)![1]).sort()).toEqual(['drop', 'flaky', 'ok1', 'ok2', 'prose', 'rate'])
    expect(seen.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true)
    expect(first.stderr).toContain(
      'digline models: loopback: 14 calls, 20 attempts (6 retries: 429 ×1, 500 ×1, 503 ×2, 529 ×1, network ×1), 1 gave up after the retry ceiling, 1 failed without retry',
    )
  })

  test('the run document: verdicts, error causes, usage per call and per run, and the cost', () => {
    const [file] = project.runFiles('acme', 'qa')
    const doc = JSON.parse(project.read(join('.digline', 'acme', 'runs', 'qa', file!)))
    const byId = Object.fromEntries(doc.results.map((r: { case_id: string }) => [r.case_id, r]))
    expect(CASES.map((id) => byId[id].error?.cause ?? byId[id].verdict)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'target', 'scorer', 'target'])
    expect(byId.down.error.message).toMatch(/gave up after 3 attempts \(503, 503, 503\)/)
    // Answers are not recorded here, so neither the judge's reply nor its reasoning is written.
    expect(byId.prose.error.message).toContain(`JudgeReplyError: the judge's reply is not valid JSON (the reply is not quoted, as answers are not recorded)`)
    expect(byId.auth.error.message).toContain('Incorrect API key provided: Bearer [redacted]')
    expect(byId.ok1.samples[0]).toMatchObject({
      usage: { input_tokens: 10, output_tokens: 2 },
      scorers: [{ name: 'llm_judge', score: 1, reason: "5/5: the judge's reasoning is not kept, as answers are not recorded", usage: { input_tokens: 40, output_tokens: 6 } }],
    })
    expect(doc.observed).toEqual({ target_model: 'gpt-mini-2026-01-01', judge_models: { llm_judge: 'judge-mini' } })
    expect(doc.target_config).toEqual({ provider: 'openai-compatible', model: 'gpt-mini', base_url: server.url, temperature: 0, system: 'Answer briefly.' })
    expect(doc.judge_config.scorers[0].config.model).toEqual({ provider: 'openai.chat', model: 'judge-mini' })
    // 5 judged cases: target 5 × (10 + 2), judges 5 × (40 + 6); cost (50 × 1 + 10 × 4 + 200 × 0.5 + 30 × 2) per million
    expect(doc.aggregates).toMatchObject({
      cases: 8,
      passed: 5,
      errored: 3,
      usage: { input_tokens: 50, output_tokens: 10 },
      judge_usage: { input_tokens: 200, output_tokens: 30 },
      cost: { target: 0.00009, judge: 0.00016, total: 0.00025, unpriced: [] },
    })
    expect(Object.keys(doc.aggregates).slice(-3)).toEqual(['usage', 'judge_usage', 'cost'])
  })

  test('no API key in the store (documents and journal) or in the output', () => {
    expect(journalChecks).toHaveLength(1)
    expect(journalChecks[0]).toEqual({ legs: 1, leaked: false })
    const files = filesUnder(join(project.dir, '.digline'))
    expect(files.length).toBeGreaterThan(0)
    expect(files.filter(([, text]) => text.includes(KEY)).map(([p]) => p)).toEqual([])
    expect(first.stdout).not.toContain(KEY)
    expect(first.stderr).not.toContain(KEY)
  })

  test('the next run announces an estimate from this one before its first call', async () => {
    const [file] = project.runFiles('acme', 'qa')
    server.script = (r) =>
      r.body.response_format !== undefined ? { reply: JSON.stringify({ reasoning: 'ok', score: 5 }), model: 'judge-mini' } : { reply: 'fine', model: 'gpt-mini-2026-01-01' }
    const second = await project.vitest([], { CHAT_URL: server.url, OPENAI_API_KEY: KEY, CASES: 'a,b,c,d' })
    // 5 calls gave 50 + 10 target and 200 + 30 judge tokens and cost 0.00025: per call ×4 calls
    expect(second.stderr).toContain(
      `digline qa: 4 of 4 cases × 1 sample = 4 calls to the target; estimated from run ${file!.replace(/\.json$/, '')}: ~40 input + 8 output tokens to the target, ~160 + 24 to the judges, cost ~0.0002`,
    )
    expect(second.stdout + second.stderr).not.toContain(KEY)
  })
})

const CAPPED_SUITE = (name: string) => `import { evalSuite, scorers } from 'digline'
import { openaiTarget } from 'digline/models'

// Both workers start calling together, so their calls overlap.
await fetch(new URL('/barrier?name=' + process.env.RUN_TAG + '&party=${name}&parties=2', process.env.CHAT_URL))

evalSuite({
  name: '${name}',
  cases: Array.from({ length: 12 }, (_, i) => ({ id: 'c' + i, input: 'c' + i, expected: 'ok' })),
  target: openaiTarget({ model: 'm', baseURL: process.env.CHAT_URL, maxInFlight: Number(process.env.CAP), prompt: (input) => '${name} ' + input }),
  scorers: [scorers.exact()],
  concurrency: 4,
})
`

test('the in-flight cap holds across two suites in two workers; without it they overlap further', async () => {
  const project = makeProject({
    'vitest.config.ts': `import { defineConfig } from 'vitest/config'
import { digline } from 'digline/plugin'
export default defineConfig({ plugins: [digline({ tenant: 'acme' })], test: { include: ['evals/**/*.eval.ts'], maxWorkers: 2 } })
`,
    'evals/alpha.eval.ts': CAPPED_SUITE('alpha'),
    'evals/beta.eval.ts': CAPPED_SUITE('beta'),
  })
  const measure = async (cap: number) => {
    const start = server.requests.length
    server.script = () => ({ reply: 'ok', latencyMs: 100 })
    const result = await project.vitest([], { CHAT_URL: server.url, CAP: String(cap), RUN_TAG: `cap-${cap}` })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const requests = server.requests.slice(start).sort((a, b) => a.startedAt - b.startedAt)
    const suites = requests.map((r) => r.user.split(' ')[0])
    // How often the next request to start came from the other suite: both were calling all along.
    const switches = suites.filter((s, i) => i > 0 && s !== suites[i - 1]).length
    const busy = requests.reduce((sum, r) => sum + (r.endedAt! - r.startedAt), 0)
    const span = Math.max(...requests.map((r) => r.endedAt!)) - requests[0]!.startedAt
    return { requests: requests.length, peak: Math.max(...requests.map((r) => r.inFlightAtStart)), switches, utilisation: busy / (span * Math.min(cap, 8)), stderr: result.stderr }
  }
  const capped = await measure(2)
  const free = await measure(16)
  console.log(
    `in-flight cap: cap 2 → peak ${capped.peak}, ${capped.switches} alpha/beta switches, slot utilisation ${capped.utilisation.toFixed(2)}; ` +
      `cap 16 → peak ${free.peak}, ${free.switches} switches, utilisation of 8 slots ${free.utilisation.toFixed(2)}`,
  )
  expect(capped.requests).toBe(24)
  expect(capped.peak).toBe(2)
  expect(capped.switches).toBeGreaterThanOrEqual(2)
  expect(capped.stderr).toMatch(/digline models: openai-compatible http:\/\/127\.0\.0\.1:\d+\/v1: 24 calls, 24 attempts \(0 retries\).*at most 2 in flight \(cap 2\)/)
  expect(free.requests).toBe(24)
  expect(free.peak).toBeGreaterThan(4)
})
