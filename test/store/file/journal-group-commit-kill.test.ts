// Group commit under kill -9: a real `vitest run` at concurrency 32, whose slots' records share
// fsyncs, is SIGKILLed mid-run. Every case the process reported as journaled (an onCase hook runs
// only once the case's record is durable) is in the journal, and the resume writes a document
// byte-identical to an uninterrupted run's.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { FileResultStore } from '../../../src/store/file/store.js'
import { callLines, killAfterCalls, killSuite } from '../../helpers/kill.js'
import { defaultConfig, makeProject, type Project } from '../../helpers/project.js'

const CASES = 300
const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }

const REPORT_HOOK = `import { onCase } from 'digline'
import { appendFileSync } from 'node:fs'

onCase(({ result }) => {
  appendFileSync('reported.log', result.case_id + '\\n')
})
`

function killedProject(): Project {
  return makeProject({
    'vitest.config.ts': defaultConfig('acme', ", hooks: ['hooks/report.ts']"),
    'hooks/report.ts': REPORT_HOOK,
    'evals/killed.eval.ts': killSuite({ concurrency: 32, cases: CASES, delayMs: 20 }),
  })
}

function documentSha(project: Project): string {
  const files = project.runFiles('acme', 'killed')
  expect(files).toHaveLength(1)
  return createHash('sha256')
    .update(readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', files[0]!)))
    .digest('hex')
}

function reported(project: Project): string[] {
  const file = join(project.dir, 'reported.log')
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : []
}

let reference = ''

beforeAll(async () => {
  const project = killedProject()
  const result = await project.vitest([], env)
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(reported(project)).toHaveLength(CASES)
  reference = documentSha(project)
})

test.each([60, 150, 240])('killed after %i calls at concurrency 32: every case reported journaled is in the journal, and the resume is byte-identical', async (k) => {
  const project = killedProject()
  await killAfterCalls(project, k, env)
  const before = callLines(project).length
  const acknowledged = reported(project)
  const [pending] = await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'killed')
  expect(pending?.refusal).toBeUndefined()
  const done = pending!.done
  const missing = acknowledged.filter((id) => !done.has(id))
  expect(missing, `kill after ${k} calls: reported journaled but not in the journal`).toEqual([])
  expect(acknowledged.length).toBeLessThan(CASES)
  // cases called before the kill whose record was not yet durable: at most one per slot
  expect(new Set(callLines(project).map((l) => l.split(':')[0])).size - done.size).toBeLessThanOrEqual(32)
  const resumed = await project.digline(['run', '--resume'])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(callLines(project).length - before).toBe(CASES - done.size)
  expect(documentSha(project)).toBe(reference)
})
