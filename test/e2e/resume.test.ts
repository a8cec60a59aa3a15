// `digline run --resume` against real processes and a real disk: the refusal (one row per door: an
// environment variable, an edited suite file; the whole table of fields is held in process by
// test/unit/host/resume-mismatch.test.ts), errored cases, the announcement, the rolled alias,
// pending journals named by plain runs. One killed `vitest run` serves every test that needs a
// pending journal (ADR 0520): each changes its own copy of it.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { copyProject, journalBytes, makeProject, pendingDir, type Project } from '../helpers/project.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'
import { pendingRowsOf } from './store-reads.js'

const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }

// cases 10..14 error while FLAKY is set; each call, once logged, waits while the file `hold` exists
const base = () =>
  killSuite({
    concurrency: 2,
    extra: "artifacts: ['prompt.txt'],",
    holdFile: 'hold',
    answer: "(process.env.FLAKY && i >= 10 && i < 15) ? (() => { throw new Error('upstream 529') })() : i",
  })
/** One run killed after 40 calls with FLAKY set (ADR 0460, 0520): every test that needs a pending journal changes its own copy. */
let killedOnce: Promise<Project> | undefined
const aKilledRun = async (): Promise<Project> =>
  copyProject(
    await (killedOnce ??= (async () => {
      const project = makeProject({ 'evals/killed.eval.ts': base(), 'prompt.txt': 'v1' })
      await killAfterCalls(project, 40, { ...env, FLAKY: '1' })
      return project
    })()),
  )

describe('a resume is refused, naming the field, before any call, with the journal intact', () => {
  const rows: [string, (p: Project) => void, NodeJS.ProcessEnv?][] = [
    ['environment', () => {}, { DIGLINE_ENVIRONMENT: 'staging' }],
    ['cases_digest', (p) => p.write('evals/killed.eval.ts', base().replace('i % 7 === 0 ? -1 : i', 'i % 7 === 0 ? -2 : i'))],
  ]
  // One killed run; each row changes its own copy of it (the journal's lease names a process that is gone).
  test.each(rows)('%s', async (field, change, resumeEnv = {}) => {
    const project = await aKilledRun()
    change(project)
    const before = journalBytes(project)
    const calls = callLines(project).length
    const result = await project.digline(['run', '--resume'], resumeEnv)
    expect(result.code, result.stdout + result.stderr).toBe(64)
    expect(result.stdout + result.stderr).toContain('ResumeMismatchError')
    expect(result.stdout + result.stderr).toContain(`${field} differs`)
    expect(callLines(project).length).toBe(calls)
    expect(journalBytes(project)).toEqual(before)
  })
})

test('no pending journal: --resume is refused (64) and nothing runs', async () => {
  const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 2 }) })
  const result = await project.digline(['run', '--resume'])
  expect(result.code).toBe(64)
  expect(result.stderr).toContain('NoPendingJournalError')
  expect(callLines(project)).toEqual([])
  const unknown = await project.digline(['run', '--resume', '20200101T000000000000Z-000000000000'])
  expect(unknown.code).toBe(64)
})

test('a plain run names the pending journal and the command that finishes it, and still runs', async () => {
  const project = await aKilledRun()
  const key = readdirSync(pendingDir(project))[0]!.split('.')[0]!
  const result = await project.vitest()
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(result.stderr).toContain(`run ${key} is pending with`)
  expect(result.stderr).toContain(`digline run --resume ${key}`)
  expect(project.runFiles('acme', 'killed')).toHaveLength(1)
  // still pending after the plain run: what `digline pending` lists, read in this process (ADR 0460)
  expect((await pendingRowsOf(join(project.dir, '.digline'))).map((r) => r.key)).toContain(key)
})

/** A resume of a copy of the killed run, errored cases called again: it writes the killed run's key. */
let resumedOnce:
  Promise<{ project: Project; done: Awaited<ReturnType<FileResultStore['pending']>>[number]; before: number; result: Awaited<ReturnType<Project['digline']>> }> | undefined
const resumeOf = async (keep: boolean) => {
  const project = await aKilledRun()
  const done = (await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'killed'))[0]!
  const before = callLines(project).length
  return { project, done, before, result: await project.digline(['run', '--resume', ...(keep ? ['--keep-errors'] : [])]) }
}

test('errored cases are called again by default, kept with --keep-errors; the bill equals the calls', async () => {
  for (const keep of [false, true]) {
    const { project, done, before, result } = keep ? await resumeOf(true) : await (resumedOnce ??= resumeOf(false))
    expect([...done.causes.values()]).toEqual(['target', 'target', 'target', 'target', 'target'])
    const calls = callLines(project).length - before
    const judged = done.done.size - 5
    const expectedCalls = keep ? 100 - done.done.size : 100 - judged
    expect(calls).toBe(expectedCalls)
    expect(result.stderr).toContain(
      `${expectedCalls} of 100 cases × 1 sample = ${expectedCalls} calls to the target; ${keep ? done.done.size : judged} case(s) already judged, ${keep ? 0 : 5} retried after an error`,
    )
    expect(result.code, result.stdout + result.stderr).toBe(keep ? 2 : 0)
  }
})

// One resume shows both (ADR 0520): it is held at its first calls while a second resumer is refused.
test('a model alias that rolled between legs errors the first case of the new leg, naming both ids, the run is written (exit 2); a second resumer meanwhile is refused by name', async () => {
  // the first resumer's target holds until the second has been refused, however slow the machine
  const project = await aKilledRun()
  project.write('hold', '')
  const first = project.spawnDigline(['run', '--resume'], { TARGET_MODEL: 'det-v1-2027' })
  while (readdirSync(pendingDir(project)).length < 2) await new Promise((r) => setTimeout(r, 5))
  const second = await project.digline(['run', '--resume'])
  rmSync(join(project.dir, 'hold'))
  expect(second.code, second.stdout + second.stderr).toBe(64)
  expect(second.stdout + second.stderr).toMatch(/LiveRunError|JournalLegExistsError/)
  const result = await first.done
  expect(result.code, result.stdout + result.stderr).toBe(2)
  const doc = JSON.parse(readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', project.runFiles('acme', 'killed')[0]!), 'utf8'))
  expect(doc.results).toHaveLength(100)
  const errored = doc.results.filter((r: { verdict: string }) => r.verdict === 'error')
  expect(errored.length).toBeGreaterThanOrEqual(1)
  expect(errored[0].error.message).toContain('det-v1-2026')
  expect(errored[0].error.message).toContain('det-v1-2027')
  expect(doc.observed.target_model).toBe('det-v1-2026')
})

test('a journal that outlived its run is removed by the next run with one line', async () => {
  // the resumed run, written, with its journal put back: what a process killed between writing the
  // run and deleting its journal leaves
  const project = copyProject((await (resumedOnce ??= resumeOf(false))).project)
  const killed = await killedOnce!
  const key = project.runFiles('acme', 'killed')[0]!.replace('.json', '')
  const legs = readdirSync(pendingDir(killed))
  expect(legs).toEqual([`${key}.1.jsonl`])
  mkdirSync(pendingDir(project), { recursive: true })
  copyFileSync(join(pendingDir(killed), legs[0]!), join(pendingDir(project), legs[0]!))
  const result = await project.vitest()
  expect(result.stderr).toContain(`run ${key} was already written; its leftover journal was removed`)
  expect(readdirSync(pendingDir(project))).toEqual([])
})
