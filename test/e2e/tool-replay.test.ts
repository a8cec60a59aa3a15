// Tool replay through real `vitest run` launches of the installed package (SPEC §16): an agent on
// openaiAgent (the real `openai` SDK, the loopback server scripting its tool calls) and tools that
// count their executions in a file. DIGLINE_TOOL_REPLAY=record runs every tool and files its
// outcome under .digline/<tenant>/tools/; strict then runs none and the suite passes as before; the
// run it makes is promoted, and its baseline holds no tool result; a case that makes a call never
// recorded errors the run (exit 2) naming the tool; a mode that is not one is refused (64).
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { makeProject, type Project } from '../helpers/project.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../helpers/chat-server.js'

let server: ChatServer
let project: Project

const SUITE = `import { evalSuite, scorers } from 'digline'
import { openaiAgent } from 'digline/models'
import { appendFileSync } from 'node:fs'

const tools = {
  lookup: {
    description: 'The weather station of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => (appendFileSync('tools.log', 'lookup ' + city + '\\n'), { station: 'st-' + city }),
  },
  weather: {
    parameters: { type: 'object', properties: { station: { type: 'string' } }, required: ['station'] },
    execute: ({ station }) => (appendFileSync('tools.log', 'weather ' + station + '\\n'), { temp: Number(process.env.WEATHER_TEMP ?? 21) }),
  },
}
const cities = ['Lima', 'Oslo', ...(process.env.EXTRA === '1' ? ['Quito'] : [])]
evalSuite({
  name: 'agent',
  cases: cities.map((city) => ({ id: city.toLowerCase(), input: 'weather in ' + city, expected: 'It is 21 degrees in ' + city })),
  target: openaiAgent({ model: 'agent-v1', baseURL: process.env.CHAT_URL, tools, maxSteps: 4 }),
  scorers: [scorers.exact(), scorers.toolCalls({ expected: ['lookup', 'weather'], order: 'exact' })],
  recordResponses: true,
  toolReplay: 'strict',
})
`

type Msg = { role: string; content: string | null }

function script(request: SeenRequest): Step {
  const messages = (request.body.messages ?? []) as Msg[]
  const city = String(messages.find((m) => m.role === 'user')?.content ?? '').replace(/^weather in /, '')
  const tools = messages.filter((m) => m.role === 'tool')
  const usage = { prompt_tokens: 7, completion_tokens: 2 }
  if (tools.length === 0) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'lookup', arguments: { city } }] }
  if (tools.length === 1) return { reply: '', usage, model: 'agent-v1-2026', toolCalls: [{ name: 'weather', arguments: JSON.parse(tools[0]!.content!) }] }
  return { reply: `It is ${JSON.parse(tools[1]!.content!).temp} degrees in ${city}`, usage, model: 'agent-v1-2026' }
}

const ran = (): string[] => (existsSync(join(project.dir, 'tools.log')) ? project.read('tools.log').trim().split('\n') : [])

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
}

beforeAll(async () => {
  server = await startChatServer(script)
  project = makeProject({ 'evals/agent.eval.ts': SUITE })
})
afterAll(() => server.close())

test('record runs every tool and files the outcomes; strict (the suite’s own mode) replays with zero tool executions; the baseline holds no tool result; a new call errors the run', async () => {
  const env = { CHAT_URL: server.url }
  const recorded = await project.vitest([], { ...env, DIGLINE_TOOL_REPLAY: 'record', DIGLINE_CREATED_AT: '2026-12-03T10:00:00.000001Z' })
  expect(recorded.code, recorded.stderr).toBe(0)
  expect(recorded.stderr).toContain('tool replay record: every tool call runs and its outcome is recorded')
  expect(recorded.stderr).toContain('tool replay record: 0 calls served from recordings, 4 ran, 4 recorded')
  expect(ran().sort()).toEqual(['lookup Lima', 'lookup Oslo', 'weather st-Lima', 'weather st-Oslo'])
  const recordings = filesUnder(join(project.dir, '.digline', 'acme', 'tools', 'agent'))
  expect(recordings).toHaveLength(4)
  expect(recordings.every((f) => /[/\\](lima|oslo)[/\\][0-9a-f]{64}\.json$/.test(f))).toBe(true)

  // The tools now say 35: strict replay serves what was recorded, and no tool runs.
  const replayed = await project.vitest([], { ...env, WEATHER_TEMP: '35', DIGLINE_CREATED_AT: '2026-12-03T11:00:00.000001Z' })
  expect(replayed.code, replayed.stderr).toBe(0)
  expect(replayed.stderr).toContain('tool replay strict: 4 calls served from recordings, 0 ran, 0 recorded')
  expect(ran(), 'no tool ran on the replay').toHaveLength(4)
  const key = '20261203T110000000001Z'
  const promoted = await project.digline(
    [
      'promote',
      '--suite',
      'agent',
      '--run',
      project
        .runFiles('acme', 'agent')
        .find((f) => f.startsWith(key))!
        .replace(/\.json$/, ''),
    ],
    env,
  )
  expect(promoted.code, promoted.stderr).toBe(0)
  const baseline = project.read(join('.digline', 'acme', 'baselines', 'agent.json'))
  expect(baseline).toContain('"name":"weather","ok":true')
  for (const word of ['st-Lima', '"temp"', 'It is 21']) expect(baseline).not.toContain(word)

  // A case whose calls were never recorded errors the run: exit 2, the tool named, nothing run.
  const missing = await project.vitest([], { ...env, EXTRA: '1', DIGLINE_CREATED_AT: '2026-12-03T12:00:00.000001Z' })
  expect(missing.code, missing.stderr).toBe(2)
  expect(missing.stdout + missing.stderr).toMatch(/strict tool replay refused a call never recorded: tool \\?"lookup\\?" with arguments \{\\?"city\\?":\\?"Quito\\?"\}/)
  expect(ran()).toHaveLength(4)

  // replay fills in what is missing, and strict passes again.
  const filled = await project.vitest([], { ...env, EXTRA: '1', DIGLINE_TOOL_REPLAY: 'replay', DIGLINE_CREATED_AT: '2026-12-03T13:00:00.000001Z' })
  expect(filled.code, filled.stderr).toBe(0)
  expect(ran().slice(4).sort()).toEqual(['lookup Quito', 'weather st-Quito'])

  const refused = await project.vitest([], { ...env, DIGLINE_TOOL_REPLAY: 'sometimes', DIGLINE_CREATED_AT: '2026-12-03T14:00:00.000001Z' })
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('DIGLINE_TOOL_REPLAY="sometimes" was refused: it is off, record, replay or strict')
})
