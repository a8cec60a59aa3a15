// Conversations in real `vitest run`s (SPEC §16, ADR 0311): the target through the real `openai`
// SDK and the simulated user through the real AI SDK, both against the loopback chat server, which
// counts every call per case. A run killed with SIGKILL mid-conversation at concurrency 8 and
// resumed writes the document an uninterrupted run writes, byte for byte, and calls again only the
// conversations that were not journaled, each whole; no word of any turn is under .digline/.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { makeProject, pendingDir, type Project } from '../helpers/project.js'
import { startChatServer, type ChatServer, type SeenRequest, type Step } from '../helpers/chat-server.js'

const SAID = 'TURNWORD'
const CASES = 24
const env = { DIGLINE_CREATED_AT: '2026-12-03T10:00:00.000000Z', OPENAI_API_KEY: 'sk-loopback-conv' }

const SUITE = `import { evalSuite } from 'digline'
import { aiSdkModel, openaiTarget, simulatedUser } from 'digline/models'
import { createOpenAI } from '@ai-sdk/openai'

const baseURL = process.env.CHAT_URL
const retry = { attempts: 2, baseMs: 1, maxMs: 50 }
const user = simulatedUser({ model: aiSdkModel(createOpenAI({ baseURL, apiKey: 'sk-loopback-conv' }).chat('user-sim'), { retry, pool: 'loopback' }), maxTurns: 4 })

evalSuite({
  name: 'talk',
  cases: Array.from({ length: ${CASES} }, (_, i) => {
    const id = 'c' + String(i).padStart(2, '0')
    return i % 3 === 0
      ? { id, input: { script: ['${SAID} hello ' + id, '${SAID} refund order of ' + id, '${SAID} bye ' + id] } }
      : { id, input: { persona: '${SAID} a terse customer ' + id, goal: '${SAID} a refund for ' + id } }
  }),
  target: openaiTarget({ model: 'shop-v1', baseURL, retry, pool: 'loopback', system: 'You are a shop assistant.' }),
  scorers: [
    {
      name: 'refunded',
      score: ({ turns }) => turns.some((t) => t.role === 'assistant' && String(t.content).includes('REFUND-ISSUED')),
    },
  ],
  conversation: { user },
  concurrency: 8,
})
`

type Msg = { role: string; content: string }
let server: ChatServer
const seen: { who: 'user' | 'target'; caseId: string }[] = []

/** The target answers a refund request with a refund; the user greets, asks for a refund, then thanks and stops. */
function script(request: SeenRequest): Step {
  const messages = (request.body.messages ?? []) as Msg[]
  const text = messages.map((m) => m.content).join('\n')
  const caseId = text.match(/\bc\d\d\b/)?.[0] ?? '?'
  const usage = { prompt_tokens: 5, completion_tokens: 2 }
  if (request.body.model === 'user-sim') {
    seen.push({ who: 'user', caseId })
    const answers = (messages[1]?.content.match(/^Assistant:/gm) ?? []).length
    const reply = answers === 0 ? `${SAID} hello ${caseId}` : answers === 1 ? `${SAID} refund please, ${caseId}` : `${SAID} thanks ${caseId} [DONE]`
    return { reply, model: 'user-sim-2026', usage, latencyMs: 3 }
  }
  seen.push({ who: 'target', caseId })
  const last = messages[messages.length - 1]!.content
  return { reply: /refund/.test(last) ? `REFUND-ISSUED ${SAID} for ${caseId}` : `${SAID} how can I help, ${caseId}?`, model: 'shop-v1-2026', usage, latencyMs: 6 }
}

beforeAll(async () => {
  server = await startChatServer(script)
})
afterAll(() => server.close())

function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path))
    else out.push(path)
  }
  return out
}

function leaked(project: Project): string[] {
  return filesUnder(join(project.dir, '.digline')).filter((path) => readFileSync(path).includes(SAID))
}

function documentOf(project: Project): Buffer {
  const [name] = project.runFiles('acme', 'talk')
  return readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'talk', name!))
}

/** Calls per case among `requests`, as "user"/"target" counts. */
function perCase(requests: typeof seen): Map<string, { user: number; target: number }> {
  const out = new Map<string, { user: number; target: number }>()
  for (const r of requests) {
    const n = out.get(r.caseId) ?? { user: 0, target: 0 }
    n[r.who]++
    out.set(r.caseId, n)
  }
  return out
}

const ids = Array.from({ length: CASES }, (_, i) => 'c' + String(i).padStart(2, '0'))
/** A whole conversation: three scripted lines; or the user's three messages around the target's two answers. */
const whole = (id: string) => (Number(id.slice(1)) % 3 === 0 ? { user: 0, target: 3 } : { user: 3, target: 2 })

test('killed mid-conversation at concurrency 8 and resumed: the document an uninterrupted run writes, only the conversations not journaled called again, each whole, no word said on disk', async () => {
  const runEnv = { ...env, CHAT_URL: server.url }
  const project = makeProject({ 'evals/talk.eval.ts': SUITE })
  const child = project.spawnVitest([], runEnv)
  const deadline = Date.now() + 120_000
  // enough for several cases to be journaled and several conversations to be mid-way
  while (seen.length < 40) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`vitest ended before the kill:\n${(await child.done).stdout}\n${(await child.done).stderr}`)
    await new Promise((r) => setTimeout(r, 2))
  }
  process.kill(-child.pid!, 'SIGKILL')
  await child.done
  const beforeKill = perCase(seen.splice(0))
  expect(leaked(project), 'no turn text in the journal').toEqual([])

  const pending = (await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'talk'))[0]!
  const journaled = new Set(pending.done.keys())
  const inFlight = ids.filter((id) => beforeKill.has(id) && !journaled.has(id))
  expect(journaled.size, 'some conversations were journaled before the kill').toBeGreaterThan(0)
  expect(inFlight.length, 'some conversations were in flight at the kill').toBeGreaterThan(0)
  for (const id of journaled) expect(beforeKill.get(id), id).toEqual(whole(id))

  const resumed = await project.digline(['run', '--resume'], runEnv)
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  const afterResume = perCase(seen.splice(0))
  for (const id of ids) expect(afterResume.get(id), `${id} (journaled: ${journaled.has(id)})`).toEqual(journaled.has(id) ? undefined : whole(id))
  expect(readdirSync(pendingDir(project, 'talk'))).toEqual([])
  expect(leaked(project), 'no turn text in the document').toEqual([])

  const plain = makeProject({ 'evals/talk.eval.ts': SUITE })
  const uninterrupted = await plain.vitest([], runEnv)
  expect(uninterrupted.code, uninterrupted.stdout + uninterrupted.stderr).toBe(0)
  expect(perCase(seen.splice(0))).toEqual(new Map(ids.map((id) => [id, whole(id)])))
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
  expect(sha(documentOf(project))).toBe(sha(documentOf(plain)))

  const doc = JSON.parse(documentOf(plain).toString('utf8'))
  expect(doc.judge_config.simulated_user).toMatchObject({ model: { model: 'user-sim' }, max_turns: 4, stop: '[DONE]' })
  expect(doc.observed).toEqual({ target_model: 'shop-v1-2026', judge_models: { simulated_user: 'user-sim-2026' } })
  expect(doc.aggregates.passed).toBe(CASES)
  const simulated = doc.results.find((r: { case_id: string }) => r.case_id === 'c01').samples[0]
  expect(simulated.turns).toEqual([
    { role: 'user', usage: { input_tokens: 5, output_tokens: 2 } },
    { role: 'assistant', usage: { input_tokens: 5, output_tokens: 2 } },
    { role: 'user', usage: { input_tokens: 5, output_tokens: 2 } },
    { role: 'assistant', usage: { input_tokens: 5, output_tokens: 2 } },
    { role: 'user', usage: { input_tokens: 5, output_tokens: 2 } },
  ])
  expect(simulated.usage).toEqual({ input_tokens: 10, output_tokens: 4 })
}, 600_000)
