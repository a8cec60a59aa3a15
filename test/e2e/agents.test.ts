// One real `vitest run` of a small deterministic agent (SPEC §16): openaiAgent through the real
// `openai` SDK against the loopback server, which scripts its tool calls; tools that count their
// executions; scorers.toolCalls. The suite that records answers keeps every step whole; the one that
// does not leaves no tool argument, result or input anywhere under .digline/ — every byte grepped.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { makeProject, type Project, type ProcessResult } from '../helpers/project.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../helpers/chat-server.js'

const MARK = 'PIIARG'
let server: ChatServer
let project: Project
let result: ProcessResult

const SUITES = `import { evalSuite, scorers } from 'digline'
import { openaiAgent } from 'digline/models'
import { appendFileSync } from 'node:fs'

const tools = {
  lookup: {
    description: 'The weather station of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => (appendFileSync('tools.log', 'lookup\\n'), { station: 'st-' + city }),
  },
  weather: {
    parameters: { type: 'object', properties: { station: { type: 'string' } }, required: ['station'] },
    execute: ({ station }) => (appendFileSync('tools.log', 'weather\\n'), { temp: 21, at: station }),
  },
}
const cases = ['lima', 'oslo', 'skip'].map((id) => ({ id, input: 'weather in ${MARK}-' + id, expected: ['lookup', 'weather'] }))
for (const recordResponses of [false, true]) {
  evalSuite({
    name: recordResponses ? 'agent_recorded' : 'agent_private',
    cases,
    target: openaiAgent({ model: 'agent-v1', baseURL: process.env.CHAT_URL, tools, maxSteps: 4, retry: { attempts: 2, baseMs: 1 } }),
    scorers: [scorers.toolCalls({ order: 'exact', maxCalls: 6 })],
    recordResponses,
    concurrency: 3,
  })
}
`

type Msg = { role: string; content: string | null }

function script(request: SeenRequest): Step {
  const messages = (request.body.messages ?? []) as Msg[]
  const city = request.user.replace(/^weather in /, '')
  const tools = messages.filter((m) => m.role === 'tool')
  const usage = { prompt_tokens: 7, completion_tokens: 2 }
  if (tools.length === 0) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'lookup', arguments: { city } }] }
  if (tools.length === 1 && !city.endsWith('skip')) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'weather', arguments: JSON.parse(tools[0]!.content!) }] }
  return { reply: `Sunny in ${city}`, usage, model: 'agent-v1-2026' }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
}

const doc = (suite: string) => JSON.parse(project.read(join('.digline', 'acme', 'runs', suite, project.runFiles('acme', suite)[0]!)))

beforeAll(async () => {
  server = await startChatServer(script)
  project = makeProject({ 'evals/agents.eval.ts': SUITES })
  result = await project.vitest([], { CHAT_URL: server.url, DIGLINE_CREATED_AT: '2026-12-02T01:00:00.000001Z' })
})
afterAll(() => server.close())

test('each tool ran once per call the model asked for; three model calls per finished trajectory, each a request', () => {
  expect(result.stderr).not.toMatch(/Error:/)
  const ran = project.read('tools.log').trim().split('\n')
  // lima and oslo call lookup and weather, skip only lookup; in two suites
  expect(ran.filter((t) => t === 'lookup')).toHaveLength(6)
  expect(ran.filter((t) => t === 'weather')).toHaveLength(4)
  expect(server.requests).toHaveLength(2 * (3 + 3 + 2))
})

test('recorded: the steps whole, usage summed over them, the trajectory scored', () => {
  const results = doc('agent_recorded').results
  const lima = results.find((r: { case_id: string }) => r.case_id === 'lima')
  expect(lima.verdict).toBe('pass')
  expect(lima.samples[0].usage).toEqual({ input_tokens: 21, output_tokens: 6 })
  expect(lima.samples[0].steps.map((s: { type: string; name?: string }) => s.name ?? s.type)).toEqual(['model', 'lookup', 'model', 'weather', 'model'])
  expect(lima.samples[0].steps[1]).toMatchObject({ arguments: { city: `${MARK}-lima` }, result: { station: `st-${MARK}-lima` } })
  const skip = results.find((r: { case_id: string }) => r.case_id === 'skip')
  expect(skip.verdict).toBe('fail')
  expect(skip.samples[0].scorers[0].reason).toMatch(/^missing expected call 2 of 2: weather \(never called\)/)
})

test('not recorded: tool names, counts, usage and durations only; no tool argument, result or input in any byte under .digline/', () => {
  const results = doc('agent_private').results
  const lima = results.find((r: { case_id: string }) => r.case_id === 'lima')
  expect(lima.samples[0].steps).toEqual([
    { type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 7, output_tokens: 2 }, latency_ms: expect.any(Number) },
    { type: 'tool', name: 'lookup', ok: true, latency_ms: expect.any(Number) },
    { type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 7, output_tokens: 2 }, latency_ms: expect.any(Number) },
    { type: 'tool', name: 'weather', ok: true, latency_ms: expect.any(Number) },
    { type: 'model', model: 'agent-v1-2026', usage: { input_tokens: 7, output_tokens: 2 }, latency_ms: expect.any(Number) },
  ])
  const leaks: string[] = []
  for (const file of filesUnder(join(project.dir, '.digline'))) {
    if (file.includes('agent_recorded')) continue
    const text = readFileSync(file, 'latin1')
    for (const word of [MARK, 'st-', 'Sunny']) if (text.includes(word)) leaks.push(`${file}: ${word}`)
  }
  expect(leaks).toEqual([])
  expect(filesUnder(join(project.dir, '.digline')).some((f) => f.includes('agent_private'))).toBe(true)
})
