// OpenTelemetry spans of real `vitest run`s (ADR 0330). One project has @opentelemetry/api, the SDK's
// in-memory exporter and the async-hooks context manager (installed by npm into the project, set up
// by a Vitest setup file that writes the finished spans out): its cases, samples, turns, model calls
// and tool calls are spans, nested so, with tool arguments only where answers are recorded, and the
// target's own span nested in its sample. The other project has no API: its worker, watched by a
// resolve hook, loads neither the API nor digline's span code, and its documents are the same.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { REPO } from '../helpers/installed-package.js'
import { defaultConfig, makeProject, type Project } from '../helpers/project.js'
import { modulesOf } from '../helpers/bundled-modules.js'

const SUITES = `import { evalSuite, scorers } from 'digline'
import { trace } from 'TRACE_API'

const toolSteps = (i) => [
  { type: 'model', model: 'planner-v1', usage: { input_tokens: 10, output_tokens: 2 }, latency_ms: 20 },
  { type: 'tool', name: 'lookup', arguments: { city: 'SECRET-ARG-' + i }, result: { id: 'SECRET-RESULT' }, latency_ms: 4 },
  { type: 'tool', name: 'weather', arguments: { id: 'SECRET-ARG' }, error: 'SECRET-ERROR', latency_ms: 3 },
  { type: 'model', model: 'planner-v1', usage: { input_tokens: 12, output_tokens: 1 }, latency_ms: 9 },
]
const own = () => trace?.getTracer('team').startActiveSpan('team.own', (s) => s.end())
const cases = [0, 1].map((i) => ({ id: 'c' + i, input: i, expected: 'done' }))
for (const recordResponses of [false, true]) {
  evalSuite({
    name: recordResponses ? 'agent_recorded' : 'agent_private',
    cases,
    target: { config: { model: 'planner-v1' }, async ask(i) { own(); return { output: 'done', model: 'planner-v1', steps: toolSteps(i) } } },
    samples: 2,
    scorers: [scorers.exact()],
    recordResponses,
  })
}
evalSuite({
  name: 'chat_private',
  cases: [{ id: 'talk', input: 'hi', expected: 'done' }],
  target: { config: { model: 'chat-v1' }, ask: async () => ({
    output: 'done',
    turns: [
      { role: 'user', content: 'SECRET-USER-TEXT' },
      { role: 'assistant', content: 'SECRET-ANSWER', latency_ms: 40, steps: toolSteps(9) },
      { role: 'user', content: 'SECRET-USER-TEXT-2' },
      { role: 'assistant', content: 'done', latency_ms: 5 },
    ],
  }) },
  scorers: [scorers.exact()],
})
`

const SETUP = `import { trace, context } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { afterAll } from 'vitest'
import { mkdirSync, writeFileSync } from 'node:fs'

const exporter = new InMemorySpanExporter()
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
afterAll(() => {
  mkdirSync('spans', { recursive: true })
  const spans = exporter.getFinishedSpans().map((s) => ({ name: s.name, id: s.spanContext().spanId, parent: s.parentSpanContext?.spanId ?? null, attributes: s.attributes, status: s.status }))
  writeFileSync('spans/' + process.pid + '-' + Date.now() + '.json', JSON.stringify(spans))
})
`

// On each process's loader thread: every file URL resolved, appended to LOADED_LOG.
const HOOK = `data:text/javascript,${encodeURIComponent(
  "import { appendFileSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, r.url + '\\n'); return r }",
)}`
const REGISTER = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(HOOK)})`)}`

interface SpanOut {
  name: string
  id: string
  parent: string | null
  attributes: Record<string, unknown>
  status: { code: number; message?: string }
}

let traced: Project
let plain: Project
let spans: SpanOut[]

function npmInstall(dir: string, names: string[]): void {
  const dev = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || k.toLowerCase() === 'npm_config_cache'))
  execFileSync('npm', ['install', '--prefix', dir, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', ...names.map((n) => `${n}@${dev[n]}`)], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
}

beforeAll(async () => {
  traced = makeProject({
    'vitest.config.ts': defaultConfig().replace("test: { include: ['evals/**/*.eval.ts'] }", "test: { include: ['evals/**/*.eval.ts'], setupFiles: ['./otel-setup.js'] }"),
    'otel-setup.js': SETUP,
    'evals/agents.eval.ts': SUITES.replace('TRACE_API', '@opentelemetry/api'),
  })
  npmInstall(traced.dir, ['@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/context-async-hooks'])
  plain = makeProject({ 'evals/agents.eval.ts': SUITES.replace("import { trace } from 'TRACE_API'", 'const trace = undefined') })
  const [a, b] = await Promise.all([traced.vitest(), plain.vitest([], { NODE_OPTIONS: `--import ${REGISTER}`, LOADED_LOG: join(plain.dir, 'loaded.log') })])
  expect(a.code, a.stdout + a.stderr).toBe(0)
  expect(b.code, b.stdout + b.stderr).toBe(0)
  spans = readdirSync(join(traced.dir, 'spans')).flatMap((f) => JSON.parse(traced.read(`spans/${f}`)) as SpanOut[])
}, 300_000)

const childrenOf = (span: SpanOut) => spans.filter((s) => s.parent === span.id)
const caseSpan = (suite: string, id: string) => spans.find((s) => s.name === 'digline.case' && s.attributes['digline.suite'] === suite && s.attributes['digline.case.id'] === id)!

test('each case, sample, model call and tool call is a span, nested case → sample → calls in order', () => {
  const cases = spans.filter((s) => s.name === 'digline.case')
  expect(cases).toHaveLength(5)
  for (const c of cases) expect(c.parent).toBeNull()
  const c1 = caseSpan('agent_private', 'c1')
  expect(c1.attributes).toMatchObject({ 'digline.case.verdict': 'pass', 'digline.case.passed_samples': 2, 'digline.case.score': 1, 'digline.record_responses': false })
  const samples = childrenOf(c1)
  expect(samples.map((s) => [s.name, s.attributes['digline.sample.index'], s.attributes['digline.sample.pass']])).toEqual([
    ['digline.sample', 0, true],
    ['digline.sample', 1, true],
  ])
  expect(samples[0]!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 22, 'gen_ai.usage.output_tokens': 3 })
  const calls = childrenOf(samples[0]!)
  expect(calls.map((s) => s.name)).toEqual(['team.own', 'chat planner-v1', 'execute_tool lookup', 'execute_tool weather', 'chat planner-v1'])
  expect(calls[1]!.attributes).toEqual({
    'gen_ai.operation.name': 'chat',
    'gen_ai.response.model': 'planner-v1',
    'gen_ai.usage.input_tokens': 10,
    'gen_ai.usage.output_tokens': 2,
    'digline.step.index': 0,
  })
  expect(calls[3]!.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'weather', 'digline.step.index': 2, 'digline.tool.ok': false })
  expect(calls[3]!.status).toEqual({ code: 2 })
})

test('arguments, results, error messages and turn text only where answers are recorded', () => {
  const privateText = JSON.stringify(spans.filter((s) => s.attributes['digline.suite'] !== 'agent_recorded' && !isUnder(s, 'agent_recorded')))
  expect(privateText).not.toContain('SECRET')
  const recorded = childrenOf(childrenOf(caseSpan('agent_recorded', 'c0'))[0]!)
  expect(recorded.find((s) => s.name === 'execute_tool lookup')!.attributes).toMatchObject({
    'gen_ai.tool.call.arguments': '{"city":"SECRET-ARG-0"}',
    'gen_ai.tool.call.result': '{"id":"SECRET-RESULT"}',
  })
  expect(recorded.find((s) => s.name === 'execute_tool weather')!.status).toEqual({ code: 2, message: 'SECRET-ERROR' })
})

function isUnder(span: SpanOut, suite: string): boolean {
  for (let at: SpanOut | undefined = span; at !== undefined; at = spans.find((s) => s.id === at!.parent)) if (at.attributes['digline.suite'] === suite) return true
  return false
}

test("a conversation's turns are spans between its sample and the assistant's calls", () => {
  const sample = childrenOf(caseSpan('chat_private', 'talk'))[0]!
  const turns = childrenOf(sample)
  expect(turns.map((t) => [t.name, t.attributes['digline.turn.index'], t.attributes['digline.turn.role']])).toEqual([
    ['digline.turn', 0, 'user'],
    ['digline.turn', 1, 'assistant'],
    ['digline.turn', 2, 'user'],
    ['digline.turn', 3, 'assistant'],
  ])
  expect(childrenOf(turns[1]!).map((s) => s.name)).toEqual(['chat planner-v1', 'execute_tool lookup', 'execute_tool weather', 'chat planner-v1'])
  expect(turns.some((t) => 'digline.turn.content' in t.attributes)).toBe(false)
})

test("without @opentelemetry/api the run loads neither it nor the span code, only its loaders' chunks, and its documents are the same", () => {
  const log = readFileSync(join(plain.dir, 'loaded.log'), 'utf8').split('\n')
  // A fresh run loads its code from the entries and the loaders' chunks (scripts/bundle-loaders.json, ADR
  // 0556); any other chunk that holds modules means the run took a new dynamic import the worker's roots lack.
  const chunks = [...new Set(log.filter((url) => /\/dist\/bundle\/chunks\//.test(url)))]
  expect(chunks.filter((url) => !/\/chunks\/loaded-by-/.test(url) && modulesOf([url])[0] !== url)).toEqual([])
  const loaded = modulesOf(log)
  expect(loaded.some((url) => url.endsWith('/dist/src/driver/execute.js'))).toBe(true)
  expect(loaded.filter((url) => /@opentelemetry|\/driver\/otel-spans\.js$/.test(url))).toEqual([])
  for (const suite of ['agent_private', 'agent_recorded', 'chat_private']) {
    const results = (p: Project) => (JSON.parse(p.read(`.digline/acme/runs/${suite}/${p.runFiles('acme', suite)[0]}`)) as { results: unknown }).results
    expect(results(plain)).toEqual(results(traced))
  }
})
