// User onCase hooks, registered from a hook file named in the plugin options: called once per
// finished case after its journal record is durable; a hook that throws stops the suite there; a
// worker that runs several files hands each file the hooks registered for it alone.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { defaultConfig, makeProject } from '../helpers/project.js'
import { callLines, killSuite } from '../helpers/kill.js'

const HOOK = `import { onCase } from 'digline'
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

onCase(async ({ result, cause }) => {
  // the journal record of this case is on disk before the hook runs
  const dir = join('.digline', 'acme', 'runs', 'killed', '.pending')
  const journal = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('')
  const durable = journal.includes('"case_id":"' + result.case_id + '"')
  appendFileSync('hook.log', result.case_id + ' ' + result.verdict + ' ' + durable + '\\n')
  if (process.env.HOOK_THROWS === result.case_id) throw new Error('dashboard is down')
})
`

const config = defaultConfig('acme', ", hooks: ['hooks/stream.ts']")

test('a hook sees every case once, after its journal record is durable', async () => {
  const project = makeProject({ 'vitest.config.ts': config, 'hooks/stream.ts': HOOK, 'evals/killed.eval.ts': killSuite({ concurrency: 4, cases: 30, delayMs: 1 }) })
  const result = await project.vitest()
  expect(result.code, result.stdout + result.stderr).toBe(0)
  const lines = readFileSync(join(project.dir, 'hook.log'), 'utf8').trim().split('\n')
  expect(lines).toHaveLength(30)
  expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(30)
  expect(lines.every((l) => l.endsWith(' true'))).toBe(true)
})

test('a hook that throws stops the suite at that case: no new case starts, earlier cases stay journaled, exit 2', async () => {
  const project = makeProject({ 'vitest.config.ts': config, 'hooks/stream.ts': HOOK, 'evals/killed.eval.ts': killSuite({ concurrency: 1, cases: 30, delayMs: 1 }) })
  const result = await project.vitest([], { HOOK_THROWS: 'c010' })
  expect(result.code, result.stdout + result.stderr).toBe(2)
  expect(result.stdout + result.stderr).toContain('dashboard is down')
  expect(callLines(project)).toHaveLength(11)
  expect(project.runFiles('acme', 'killed')).toEqual([])
  const leg = readdirSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', '.pending'))
  expect(leg).toHaveLength(1)
  // and the journal finishes the run without calling what it holds
  const resumed = await project.digline(['run', '--resume'])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(callLines(project)).toHaveLength(30)
})

test("Vitest's retry re-runs a case's test without calling the target again or journaling twice", async () => {
  const suite = killSuite({ concurrency: 2, cases: 5, delayMs: 1, answer: "i === 2 ? (() => { throw new Error('boom') })() : i" })
  const project = makeProject({ 'evals/killed.eval.ts': suite })
  const result = await project.vitest(['--retry=2'])
  expect(result.code, result.stdout + result.stderr).toBe(2)
  expect(callLines(project)).toHaveLength(5)
  const doc = JSON.parse(readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', project.runFiles('acme', 'killed')[0]!), 'utf8'))
  expect(doc.results.map((r: { verdict: string }) => r.verdict)).toEqual(['fail', 'pass', 'error', 'pass', 'pass'])
})

/** Two suite files run one after the other in one worker that keeps its modules (isolate: false). */
const sharedWorker = (extra = '') =>
  defaultConfig('acme', extra).replace(
    "test: { include: ['evals/**/*.eval.ts'] }",
    "test: { include: ['evals/**/*.eval.ts'], isolate: false, maxWorkers: 1, fileParallelism: false }",
  )

const logHook = (tag: string) => `onCase(({ result }) => {
  appendFileSync('hook.log', '${tag} ' + result.case_id + '\\n')
})
`
const hookLines = (dir: string) => readFileSync(join(dir, 'hook.log'), 'utf8').trim().split('\n').sort()

test('a hook file in a worker that runs several files sees each case once', async () => {
  const project = makeProject({
    'vitest.config.ts': sharedWorker(", hooks: ['hooks/log.ts']"),
    'hooks/log.ts': `import { onCase } from 'digline'\nimport { appendFileSync } from 'node:fs'\n${logHook('h')}`,
    'evals/first.eval.ts': killSuite({ name: 'first', concurrency: 2, cases: 4, delayMs: 1 }),
    'evals/second.eval.ts': killSuite({ name: 'second', concurrency: 2, cases: 6, delayMs: 1 }),
  })
  const result = await project.vitest()
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(hookLines(project.dir)).toEqual(['h c000', 'h c000', 'h c001', 'h c001', 'h c002', 'h c002', 'h c003', 'h c003', 'h c004', 'h c005'])
})

test('without hook files, a hook a suite file registers reaches only that file, in a worker that runs several files', async () => {
  const withHook = (name: string, tag: string, cases: number) => `import { onCase } from 'digline'\n${logHook(tag)}\n${killSuite({ name, concurrency: 2, cases, delayMs: 1 })}`
  const project = makeProject({
    'vitest.config.ts': sharedWorker(),
    'evals/first.eval.ts': withHook('first', 'a', 2),
    'evals/second.eval.ts': withHook('second', 'b', 3),
  })
  const result = await project.vitest()
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(hookLines(project.dir)).toEqual(['a c000', 'a c001', 'b c000', 'b c001', 'b c002'])
})
