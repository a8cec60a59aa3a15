// Tool replay inside conversations, through real `vitest run` launches of the installed package
// (SPEC §16, ADR 0381): a scripted conversation whose target is openaiAgent (the real `openai` SDK,
// the loopback server scripting one tool call per turn), and a tool that counts its executions in a
// file and answers with how many times its city was looked up. The first and the third turn ask the
// same tool with the same arguments and got different results: a replay must serve each turn the
// outcome its own turn recorded. record runs every tool; replay then runs none and every answer is
// the one recorded; strict refuses a turn never recorded, naming the tool and the turn, without
// quoting the arguments of a suite that records no responses.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { makeProject, type Project } from '../helpers/project.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../helpers/chat-server.js'

let server: ChatServer
let project: Project

const SUITE = `import { evalSuite } from 'digline'
import { openaiAgent } from 'digline/models'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'

const looked = (city) => (existsSync('tools.log') ? readFileSync('tools.log', 'utf8').split('\\n').filter((l) => l === 'lookup ' + city).length : 0)
const tools = {
  lookup: {
    description: 'The weather station of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => {
      const n = looked(city) + 1
      appendFileSync('tools.log', 'lookup ' + city + '\\n')
      return { station: city + '#' + n }
    },
  },
}
const extra = process.env.EXTRA === '1' ? ['Paris'] : []
evalSuite({
  name: 'desk',
  cases: [
    { id: 'north', input: { script: ['Lima', 'Oslo', 'Lima', ...extra] }, expected: ['station Lima#1', 'station Oslo#1', 'station Lima#2'] },
    { id: 'south', input: { script: ['Quito', 'Quito'] }, expected: ['station Quito#1', 'station Quito#2'] },
  ],
  target: openaiAgent({ model: 'desk-v1', baseURL: process.env.CHAT_URL, tools, maxSteps: 3 }),
  scorers: [
    {
      name: 'each turn answered from its own lookup',
      score: ({ turns, expected }) => {
        const said = turns.filter((t) => t.role === 'assistant').map((t) => t.content).slice(0, expected.length)
        return JSON.stringify(said) === JSON.stringify(expected)
      },
    },
  ],
  conversation: {},
  recordResponses: false,
  concurrency: 2,
})
`

type Msg = { role: string; content: string | null }

/** One lookup per turn for the city the user just named, then an answer with the station it got. */
function script(request: SeenRequest): Step {
  const messages = (request.body.messages ?? []) as Msg[]
  const lastUser = messages.map((m) => m.role).lastIndexOf('user')
  const city = String(messages[lastUser]?.content ?? '')
  const tool = messages.slice(lastUser).find((m) => m.role === 'tool')
  const usage = { prompt_tokens: 7, completion_tokens: 2 }
  if (tool === undefined) return { reply: '', usage, model: 'desk-v1-2026', toolCalls: [{ name: 'lookup', arguments: { city } }] }
  return { reply: `station ${JSON.parse(tool.content!).station}`, usage, model: 'desk-v1-2026' }
}

const ran = (): string[] => (existsSync(join(project.dir, 'tools.log')) ? project.read('tools.log').trim().split('\n') : [])

function verdicts(key: string): Record<string, string> {
  const file = project.runFiles('acme', 'desk').find((f) => f.startsWith(key))!
  const doc = JSON.parse(project.read(join('.digline', 'acme', 'runs', 'desk', file))) as { results: { case_id: string; verdict: string }[] }
  return Object.fromEntries(doc.results.map((r) => [r.case_id, r.verdict]))
}

beforeAll(async () => {
  server = await startChatServer(script)
  project = makeProject({ 'evals/desk.eval.ts': SUITE })
})
afterAll(() => server.close())

test("record runs each turn's tools; replay runs none and serves each turn its own recording; strict refuses an unrecorded turn by the tool's name", async () => {
  const env = { CHAT_URL: server.url }
  const recorded = await project.vitest([], { ...env, DIGLINE_TOOL_REPLAY: 'record', DIGLINE_CREATED_AT: '2026-12-03T10:00:00.000001Z' })
  expect(recorded.code, recorded.stderr).toBe(0)
  expect(recorded.stderr).toContain('tool replay record: 0 calls served from recordings, 5 ran, 5 recorded')
  expect(ran().sort()).toEqual(['lookup Lima', 'lookup Lima', 'lookup Oslo', 'lookup Quito', 'lookup Quito'])
  expect(verdicts('20261203T100000000001Z')).toEqual({ north: 'pass', south: 'pass' })

  // Replaying runs no tool, and each turn is served the outcome its own turn recorded (Lima#2 on the third turn, not Lima#1).
  const replayed = await project.vitest([], { ...env, DIGLINE_TOOL_REPLAY: 'replay', DIGLINE_CREATED_AT: '2026-12-03T11:00:00.000001Z' })
  expect(replayed.code, replayed.stderr).toBe(0)
  expect(replayed.stderr).toContain('tool replay replay: 5 calls served from recordings, 0 ran, 0 recorded')
  expect(ran(), 'no tool ran on the replay').toHaveLength(5)
  expect(verdicts('20261203T110000000001Z')).toEqual({ north: 'pass', south: 'pass' })

  // A fourth turn never recorded: strict errors its case (exit 2), naming the tool and the turn, not quoting the arguments.
  const missing = await project.vitest([], { ...env, EXTRA: '1', DIGLINE_TOOL_REPLAY: 'strict', DIGLINE_CREATED_AT: '2026-12-03T12:00:00.000001Z' })
  expect(missing.code, missing.stderr).toBe(2)
  const said = missing.stdout + missing.stderr
  expect(said).toMatch(
    /strict tool replay refused a call never recorded: tool \\?"lookup\\?" with arguments of digest [0-9a-f]{12} \(quoted only when the suite records responses\) in turn 3\b/,
  )
  expect(said).toMatch(/Tool \\?"lookup\\?" was recorded for case north only with other arguments/)
  expect(said).not.toContain('Paris')
  expect(ran(), 'strict ran nothing').toHaveLength(5)
  expect(verdicts('20261203T120000000001Z')).toEqual({ north: 'error', south: 'pass' })
  expect(
    project.read(
      join(
        '.digline',
        'acme',
        'runs',
        'desk',
        project.runFiles('acme', 'desk').find((f) => f.startsWith('20261203T120000000001Z'))!,
      ),
    ),
  ).not.toContain('Paris')
}, 300_000)
