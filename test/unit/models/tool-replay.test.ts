// Tool replay (SPEC §16) through the real `openai` SDK and the real `ai` + `@ai-sdk/openai` against
// the loopback chat server, which scripts multi-step tool calls, on both backends: a recording run
// executes every tool (counted) and files its outcomes; a strict replay serves them with zero tool
// executions and the same answers; a call never recorded errors its case by name (the tool, and its
// arguments only when responses are recorded), saying why no recording fit, and stops the agent's
// loop; replay records what is missing; keys carry no argument; a secret of the environment is
// redacted in what a recording keeps.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { tool } from 'ai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { serializeCase } from '../../../src/document/serialize.js'
import { baselineOf, serializeBaseline } from '../../../src/document/baseline.js'
import { execute } from '../../../src/driver/execute.js'
import { openToolReplay } from '../../../src/host/tools/tool-replay.js'
import { aiSdkAgent, openaiAgent, type AgentTools } from '../../../src/models/index.js'
import type { Store } from '../../../src/store/contract.js'
import { FileResultStore } from '../../../src/store/file/store.js'
import { PostgresStore } from '../../../src/store/postgres/store.js'
import { callTool } from '../../../src/suite/call-tool.js'
import type { ToolReplayMode } from '../../../src/suite/tool-replay.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../../helpers/chat-server.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js'
import { makeRun } from '../../helpers/make-run.js'
import { suiteOf } from '../driver/fixture.js'

const SECRET_CITY = 'Zyxville-ARG-7'
const ENV_SECRET = 'sk-toolreplay-SUPERSECRET-0042'
const ENV_NAME = 'TOOLREPLAY_TEST_API_KEY'
const RUN_KEY = '20261203T120000000001Z-0123456789ab'
let server: ChatServer
let db: TestDatabase | undefined
let dir: string

type Msg = { role: string; content: string | null }

/** Look the city up, then read its station, then answer with what the tools said. */
function agentScript(request: SeenRequest): Step {
  const messages = (request.body.messages ?? []) as Msg[]
  const last = messages.at(-1)!
  const usage = { prompt_tokens: 10, completion_tokens: 3 }
  const city = (messages.find((m) => m.role === 'user')?.content ?? '').replace(/^weather in /, '')
  if (last.role === 'user') return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'lookup', arguments: { city } }] }
  if (last.content?.includes('"error"')) return { reply: `sorry: ${last.content}`, usage, model: 'agent-v1-2026' }
  const toolTurns = messages.filter((m) => m.role === 'tool').length
  if (toolTurns === 1) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'weather', arguments: { station: JSON.parse(last.content!).station } }] }
  const said = JSON.parse(last.content!) as { temp: number; token?: string }
  return { reply: `It is ${said.temp} degrees in ${city}${said.token === undefined ? '' : ` (${said.token})`}`, usage, model: 'agent-v1-2026' }
}

beforeAll(async () => {
  server = await startChatServer(agentScript)
  db = await createTestDatabase('toolreplay')
  dir = mkdtempSync(join(tmpdir(), 'digline-toolreplay-'))
  process.env[ENV_NAME] = ENV_SECRET
})
afterAll(async () => {
  delete process.env[ENV_NAME]
  await server.close()
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

/** Tools whose every execution is counted; the weather of a station is its ordinal, so a changed world shows. */
function countedTools(temp = 21) {
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
        return args.station === 'st-Envtown' ? { temp, token: process.env[ENV_NAME] } : { temp }
      },
    },
  }
  return { tools, ran }
}

const cases = [
  { id: 'lima', input: 'weather in Lima', expected: 'It is 21 degrees in Lima' },
  { id: 'secret', input: `weather in ${SECRET_CITY}`, expected: `It is 21 degrees in ${SECRET_CITY}` },
  { id: 'atlantis', input: 'weather in Atlantis', expected: 'sorry: {"error":"no city Atlantis"}' },
]

function launch(store: Store, suite: string, mode: Exclude<ToolReplayMode, 'off'>, target: SuiteDefinition['target'], more: Partial<SuiteDefinition> = {}) {
  const said: string[] = []
  const replay = openToolReplay(store, { tenant: 'acme', suite: { name: suite, recordResponses: more.recordResponses ?? true }, key: RUN_KEY }, mode, (l) => said.push(l))
  const running = execute({ suite: suiteOf({ name: suite, cases, target, recordResponses: true, ...more }), tools: replay.forSample })
  return { running, replay, said }
}

/** What a sample's steps say, without durations (a replayed call is faster). */
function trajectory(result: CaseResult): string[] {
  return result.samples[0]!.steps!.map((s) => (s.type === 'model' ? 'model' : `${s.name}(${JSON.stringify(s.arguments)})=${JSON.stringify(s.result ?? s.error)}`))
}

const openai = (tools: AgentTools) => openaiAgent({ model: 'agent-v1', baseURL: server.url, tools, maxSteps: 5, temperature: 0 })
const requestsFor = (user: string, from: number) => server.requests.slice(from).filter((r) => r.user === user).length

const backends: [string, () => Promise<Store>][] = [
  ['the file store', async () => new FileResultStore({ root: join(dir, `store-${Math.random().toString(36).slice(2)}`) })],
  [
    'the team store',
    async () => {
      await db!.truncate()
      const store = new PostgresStore({ url: db!.url })
      await store.ready()
      return store
    },
  ],
]

describe.each(backends)('%s', (_label, open) => {
  test('openaiAgent: record runs every tool, strict replays with zero tool executions and the same answers, and refuses a call never recorded', async () => {
    const store = await open()
    try {
      const live = countedTools()
      const recorded = launch(store, 'weather', 'record', openai(live.tools))
      const first = await recorded.running
      expect(first.results.map((r) => r.verdict)).toEqual(['pass', 'pass', 'pass'])
      expect(live.ran.sort()).toEqual(['lookup Atlantis', 'lookup Lima', `lookup ${SECRET_CITY}`, 'weather st-Lima', `weather st-${SECRET_CITY}`])
      expect(recorded.replay.tally).toEqual({ served: 0, ran: 5, recorded: 5, refused: 0 })
      // Keys and parts are digests: no argument (the secret city) is in them.
      for (const id of ['lima', 'secret', 'atlantis']) {
        for (const r of await store.toolRecordingsOf('acme', 'weather', id)) {
          expect(JSON.stringify({ key: r.key, parts: r.parts, run: r.run })).not.toContain('Zyxville')
          expect(r.run).toBe(RUN_KEY)
        }
      }
      expect(await store.toolRecordingsOf('acme', 'weather', 'atlantis')).toMatchObject([{ outcome: { error: 'no city Atlantis' } }])

      // The world changed (the tools would now say 35): strict replay serves what was recorded, and runs nothing.
      const later = countedTools(35)
      const replayed = launch(store, 'weather', 'strict', openai(later.tools))
      const second = await replayed.running
      expect(later.ran, 'no tool ran').toEqual([])
      expect(replayed.replay.tally).toEqual({ served: 5, ran: 0, recorded: 0, refused: 0 })
      expect(second.results.map((r) => r.verdict)).toEqual(['pass', 'pass', 'pass'])
      expect(second.results.map(trajectory)).toEqual(first.results.map(trajectory))

      // A call never recorded: the case errors, naming the tool and its arguments and why, and the loop stops at once.
      const from = server.requests.length
      const refused = launch(store, 'weather', 'strict', openai(later.tools), {
        cases: [...cases, { id: 'quito', input: 'weather in Quito', expected: 'It is 21 degrees in Quito' }],
      })
      const third = await refused.running
      expect(third.results.map((r) => r.verdict)).toEqual(['pass', 'pass', 'pass', 'error'])
      const error = third.results[3]!.error!
      expect(error.cause).toBe('target')
      expect(error.message).toContain('strict tool replay refused a call never recorded: tool "lookup" with arguments {"city":"Quito"}')
      expect(error.message).toContain('Nothing is recorded for case quito')
      expect(later.ran).toEqual([])
      expect(requestsFor('weather in Quito', from), 'one model call, then the refusal ended the answer').toBe(1)
      expect(refused.replay.tally).toMatchObject({ ran: 0, refused: 1 })
    } finally {
      await store.close()
    }
  })

  test('replay records only what is missing; strict says which part of the call differs from what was recorded', async () => {
    const store = await open()
    try {
      await launch(store, 'weather', 'record', openai(countedTools().tools), { cases: cases.slice(0, 1) }).running
      const filling = countedTools()
      const quito = { id: 'lima', input: 'weather in Quito', expected: 'It is 21 degrees in Quito' }
      // Same case id, new input: lookup(Quito) was never recorded for it, nor weather(st-Quito).
      const strictMiss = await launch(store, 'weather', 'strict', openai(filling.tools), { cases: [quito] }).running
      expect(strictMiss.results[0]!.error!.message).toContain('Tool "lookup" was recorded for case lima only with other arguments (1 recording)')
      const replay = launch(store, 'weather', 'replay', openai(filling.tools), { cases: [quito, cases[0]!].map((c, i) => ({ ...c, id: i === 0 ? 'lima' : 'lima2' })) })
      const filled = await replay.running
      expect(filled.results.map((r) => r.verdict)).toEqual(['pass', 'pass'])
      expect(filling.ran.sort(), 'lima2 was never recorded either').toEqual(['lookup Lima', 'lookup Quito', 'weather st-Lima', 'weather st-Quito'])
      expect(replay.replay.tally).toEqual({ served: 0, ran: 4, recorded: 4, refused: 0 })
      const none = countedTools()
      expect((await launch(store, 'weather', 'strict', openai(none.tools), { cases: [quito] }).running).results[0]!.verdict).toBe('pass')
      expect(none.ran).toEqual([])
      // A tool declared otherwise (a new version) is not served what its old version returned.
      const bumped = countedTools()
      const stale = await launch(store, 'weather', 'strict', openai({ ...bumped.tools, lookup: { ...bumped.tools.lookup!, version: '2' } }), { cases: [quito] }).running
      expect(stale.results[0]!.error!.message).toContain('when it was declared otherwise: its description, parameters or version changed since')
    } finally {
      await store.close()
    }
  })

  test('aiSdkAgent: record, then strict with zero tool executions; a call never recorded stops generateText and errors the case', async () => {
    const store = await open()
    try {
      const make = () => {
        const ran: string[] = []
        const tools = {
          lookup: tool({
            description: 'Finds the weather station of a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => (ran.push(`lookup ${city}`), { station: `st-${city}` }),
          }),
          weather: tool({ inputSchema: z.object({ station: z.string() }), execute: async ({ station }) => (ran.push(`weather ${station}`), { temp: 21 }) }),
        }
        return { ran, agent: aiSdkAgent(createOpenAI({ baseURL: server.url, apiKey: 'none' }).chat('agent-v1'), { tools, maxSteps: 5 }) }
      }
      const two = cases.slice(0, 2)
      const live = make()
      const first = await launch(store, 'weather-ai', 'record', live.agent, { cases: two }).running
      expect(first.results.map((r) => r.verdict)).toEqual(['pass', 'pass'])
      expect(live.ran).toHaveLength(4)
      const later = make()
      const second = await launch(store, 'weather-ai', 'strict', later.agent, { cases: two }).running
      expect(later.ran).toEqual([])
      expect(second.results.map(trajectory)).toEqual(first.results.map(trajectory))
      const from = server.requests.length
      const miss = make()
      const third = await launch(store, 'weather-ai', 'strict', miss.agent, { cases: [{ id: 'lima', input: 'weather in Quito', expected: 'x' }] }).running
      expect(third.results[0]!.verdict).toBe('error')
      expect(third.results[0]!.error!.message).toContain('strict tool replay refused a call never recorded: tool "lookup" with arguments {"city":"Quito"}')
      expect(miss.ran).toEqual([])
      expect(requestsFor('weather in Quito', from), 'the SDK did not go on after the refusal').toBe(1)
    } finally {
      await store.close()
    }
  })

  test('responses not recorded: a refusal names the tool and a digest, never the arguments; the document and its baseline hold no tool result; a secret of the environment is redacted in the recording', async () => {
    const store = await open()
    try {
      const unrecorded = { recordResponses: false }
      const envCase = { id: 'env', input: 'weather in Envtown', expected: 'It is 21 degrees in Envtown ([redacted])' }
      const live = countedTools()
      await launch(store, 'private', 'record', openai(live.tools), { ...unrecorded, cases: [envCase] }).running
      const [kept] = (await store.toolRecordingsOf('acme', 'private', 'env')).filter((r) => r.parts.tool === 'weather')
      expect(JSON.stringify(kept!.outcome)).not.toContain(ENV_SECRET)
      expect(kept!.outcome).toEqual({ result: { temp: 21, token: '[redacted]' } })
      const replayed = await launch(store, 'private', 'strict', openai(countedTools().tools), { ...unrecorded, cases: [envCase, cases[1]!] }).running
      expect(replayed.results[0]!.verdict, 'the model was handed the redacted result').toBe('pass')
      const message = replayed.results[1]!.error!.message
      expect(message).toMatch(/tool "lookup" with arguments of digest [0-9a-f]{12} \(quoted only when the suite records responses\)/)
      expect(message).not.toContain('Zyxville')
      const text = replayed.results.map(serializeCase).join('\n')
      expect(text).not.toContain('Zyxville')
      expect(text).not.toContain('temp')

      // Recorded responses: the run keeps the tool results, the baseline promoted from it never does.
      const shown = await launch(store, 'weather', 'record', openai(countedTools().tools), { cases: cases.slice(0, 2) }).running
      const run: RunDocument = { ...makeRun({ suite: 'weather' }), record_responses: true, results: shown.results }
      expect(JSON.stringify(run.results)).toContain('st-Lima')
      const baseline = serializeBaseline(baselineOf(run, 'k', '2026-12-03T12:00:00.000000Z'))
      expect(baseline).not.toContain('st-Lima')
      expect(baseline).not.toContain('Zyxville')
      expect(baseline).toContain('{"type":"tool","name":"lookup","ok":true')
    } finally {
      await store.close()
    }
  })
})

test('the file store keeps recordings under <tenant>/tools/<suite>/<case>/, named by key alone; callTool outside a launch just runs the tool', async () => {
  const root = join(dir, 'named')
  const store = new FileResultStore({ root })
  await launch(store, 'weather', 'record', openai(countedTools().tools), { cases: cases.slice(1, 2) }).running
  const names = readdirSync(join(root, 'acme', 'tools', 'weather', 'secret'))
  expect(names).toHaveLength(2)
  for (const name of names) expect(name).toMatch(/^[0-9a-f]{64}\.json$/)
  let ran = 0
  const value = await callTool({ caseId: 'x', sample: 0, signal: new AbortController().signal }, 'lookup', { city: 'Lima' }, () => (ran++, 7))
  expect([value, ran]).toEqual([7, 1])
  await store.close()
})
