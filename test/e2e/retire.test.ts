// `digline retire` with real Vitest processes and the CLI (SPEC §10, seed 003): the suite's
// definition is soft-deleted — hidden from `list`, refused by every command that would add to it
// (a run, a resume, a re-judge into it, compare, promote), each before any call and with nothing on
// disk changed — while its runs, baseline, register and removal records stay, and a run of it can
// still be shown and deleted. Retiring again changes nothing and says when. The first retire and the
// commands that launch Vitest run through the installed bin; the others through main() in this
// process (ADR 0470).
import { hostname } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { countingSuite, makeProject, type ProcessResult } from '../helpers/project.js'
import { inProcess } from './cli-in-process.js'
import { snapshotTree } from '../store/tree-snapshot.js'
import { fileRun } from '../store/delete-fixtures.js'

const STAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/

function refusedAsRetired(result: Omit<ProcessResult, 'signal'>, retiredAt: string): void {
  expect(result.code, result.stdout + result.stderr).toBe(64)
  const said = result.stdout + result.stderr
  expect(said).toContain('SuiteRetiredError')
  expect(said).toContain(`suite capitals of tenant acme was retired at ${retiredAt}`)
}

test('retire hides a suite and refuses what would add to it, before any call; its history stays readable and deletable', async () => {
  const project = makeProject({
    'evals/capitals.eval.ts': countingSuite({ name: 'capitals', cases: 3 }),
    'evals/rivers.eval.ts': countingSuite({ name: 'rivers', cases: 3, extra: 'recordResponses: true,' }),
  })
  const store = new FileResultStore({ root: join(project.dir, '.digline') })
  for (const at of ['2026-06-01T10:00:00.000001Z', '2026-06-01T11:00:00.000001Z']) {
    const run = await project.vitest([], { DIGLINE_CREATED_AT: at })
    expect(run.code, run.stdout + run.stderr).toBe(0)
  }
  const [k1, k2] = project.runFiles('acme', 'capitals').map((f) => f.replace(/\.json$/, ''))
  const promoted = await inProcess(project, ['promote', '--suite', 'capitals', '--run', k1!])
  expect(promoted.code, promoted.stderr).toBe(0)
  // A journal another machine left pending: kept by the retirement, and its resume refused.
  const pending = await fileRun(store, { suite: 'capitals', at: 5, legs: 1, host: `${hostname()}-elsewhere`, document: false })

  const retired = await project.digline(['retire', '--suite', 'capitals'])
  expect(retired.code, retired.stderr).toBe(0)
  const retiredAt = STAMP.exec(retired.stdout)![0]
  expect(retired.stdout).toContain(`Retired suite capitals of tenant acme at ${retiredAt}:`)
  expect(retired.stdout).toContain(`Kept as they were: 2 run(s), its baseline (${k1}), its register lines, its removal records.`)
  expect(retired.stdout).toContain(`Left pending (a resume is refused; \`digline delete --suite capitals --run KEY\` removes one): ${pending}.`)

  const tree = () => snapshotTree(join(project.dir, '.digline'))
  const before = tree()
  const calls = project.read('calls.log')
  const again = await inProcess(project, ['retire', '--suite', 'capitals'])
  expect(again.code).toBe(0)
  expect(again.stdout.trim()).toBe(`Suite capitals of tenant acme was already retired at ${retiredAt}; nothing was changed.`)
  const asJson = await inProcess(project, ['retire', '--suite', 'capitals', '--json'])
  expect(JSON.parse(asJson.stdout)).toEqual({ tenant: 'acme', suite: 'capitals', retired_at: retiredAt, already_retired: true, runs: 2, baseline: k1, pending: [pending] })

  const listed = await inProcess(project, ['list'])
  expect(listed.stdout).toMatch(/^rivers {2}2 run\(s\)/m)
  expect(listed.stdout).not.toContain('capitals')
  const retiredList = await inProcess(project, ['list', '--retired'])
  expect(retiredList.stdout.trim()).toBe(`capitals  retired ${retiredAt}  2 run(s)  baseline ${k1}`)
  const retiredJson = JSON.parse((await inProcess(project, ['list', '--retired', '--json'])).stdout) as { retired: unknown[] }
  expect(retiredJson.retired).toEqual([{ suite: 'capitals', runs: 2, latest: k2, baseline: k1, retired_at: retiredAt }])
  expect((await inProcess(project, ['list', '--suite', 'capitals'])).stdout.split('\n')[0]).toBe(`Suite capitals was retired at ${retiredAt}; its runs are kept:`)

  refusedAsRetired(await project.vitest(['evals/capitals.eval.ts'], { DIGLINE_CREATED_AT: '2026-06-01T12:00:00.000001Z' }), retiredAt)
  refusedAsRetired(await project.digline(['run', 'evals/capitals.eval.ts'], { DIGLINE_CREATED_AT: '2026-06-01T12:00:00.000001Z' }), retiredAt)
  refusedAsRetired(await project.digline(['run', '--resume', pending, '--suite', 'capitals']), retiredAt)
  refusedAsRetired(await inProcess(project, ['compare', '--suite', 'capitals', '--run', 'latest']), retiredAt)
  refusedAsRetired(await inProcess(project, ['promote', '--suite', 'capitals', '--run', k2!, '--replacing', k1!]), retiredAt)
  refusedAsRetired(await project.digline(['rejudge', '--suite', 'rivers', '--run', 'latest', '--into', 'capitals']), retiredAt)
  expect(tree()).toEqual(before)
  expect(project.read('calls.log')).toBe(calls)

  // History is read, and a run's payload is still hard-deleted.
  const shown = await inProcess(project, ['show', '--suite', 'capitals', '--run', k1!, '--json'])
  expect(shown.code, shown.stderr).toBe(0)
  expect(JSON.parse(shown.stdout)).toMatchObject({ key: k1, suite: 'capitals' })
  const deleted = await inProcess(project, ['delete', '--suite', 'capitals', '--run', k2!])
  expect(deleted.code, deleted.stderr).toBe(0)
  expect(deleted.stdout).toContain(`Deleted run ${k2} of suite capitals`)
  expect(project.runFiles('acme', 'capitals')).toEqual([`${k1}.json`])
  expect((await store.readBaseline('acme', 'capitals'))?.promoted_from).toBe(k1)
  expect((await inProcess(project, ['list', '--retired'])).stdout.trim()).toBe(`capitals  retired ${retiredAt}  1 run(s)  baseline ${k1}`)
  // The other suite lives on.
  const rivers = await project.vitest(['evals/rivers.eval.ts'], { DIGLINE_CREATED_AT: '2026-06-01T13:00:00.000001Z' })
  expect(rivers.code, rivers.stdout + rivers.stderr).toBe(0)
})
