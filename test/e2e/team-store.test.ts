// The team store end to end, on a real PostgreSQL server: a real `vitest run` of a suite with
// `store: 'postgres://…'` (and through DIGLINE_STORE), then the CLI on it; `show --json` gives the
// same bytes as the same run on the file store; a run killed in one working directory is finished
// from another working directory and HOME against the same database.
import { mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PostgresStore } from '../../src/store/postgres/store.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { countingSuite, defaultConfig, installRoot, makeProject } from '../helpers/project.js'
import { pendingRowsOf, shownJson } from './store-reads.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('e2e')
})
afterAll(async () => {
  await db?.drop()
})

const AT = '2026-11-30T08:00:00.000001Z'
const AT_2 = '2026-11-30T09:00:00.000001Z'

function storeOption(url: string): string {
  return `, store: ${JSON.stringify(url)}`
}

describe('a suite run into the team store, and the CLI on it', () => {
  test('vitest run with store: postgres://…, then list, show --json (the same bytes as the file store), compare, promote, pending, delete', async () => {
    const suite = countingSuite({ name: 'cap', cases: 6 })
    const team = makeProject({ 'vitest.config.ts': defaultConfig('acme', storeOption(db.url)), 'evals/cap.eval.ts': suite })
    const local = makeProject({ 'evals/cap.eval.ts': suite })

    const run = await team.vitest([], { DIGLINE_CREATED_AT: AT })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(team.runFiles('acme', 'cap')).toEqual([])
    const localRun = await local.vitest([], { DIGLINE_CREATED_AT: AT })
    expect(localRun.code, localRun.stdout + localRun.stderr).toBe(0)

    const list = await team.digline(['list', '--suite', 'cap', '--json'])
    expect(list.code, list.stderr).toBe(0)
    const listed = JSON.parse(list.stdout) as { runs: { key: string }[] }
    expect(listed.runs).toHaveLength(1)
    const key = listed.runs[0]!.key
    expect(key).toMatch(/^20261130T080000000001Z-/)
    expect(list.stdout).toBe((await local.digline(['list', '--suite', 'cap', '--json'])).stdout)

    const shown = await team.digline(['show', '--suite', 'cap', '--run', key, '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    const localShown = await local.digline(['show', '--suite', 'cap', '--run', key, '--json'])
    expect(localShown.code, localShown.stderr).toBe(0)
    expect(shown.stdout).toBe(localShown.stdout)

    const promoted = await team.digline(['promote', '--suite', 'cap', '--run', key])
    expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
    // issue 23 item 20: rows in the team store are not files a person commits
    expect(promoted.stdout).toContain('there is nothing to commit')
    expect(promoted.stdout).not.toMatch(/^Commit /m)
    const second = await team.vitest([], { DIGLINE_CREATED_AT: AT_2 })
    expect(second.code, second.stdout + second.stderr).toBe(0)
    const compared = await team.digline(['compare', '--suite', 'cap', '--run', 'latest', '--json'])
    expect(compared.code, compared.stdout + compared.stderr).toBe(0)
    expect((JSON.parse(compared.stdout) as { baseline: { key?: string } | null }).baseline).not.toBeNull()

    const pending = await team.digline(['pending', '--json'])
    expect(pending.code, pending.stderr).toBe(0)
    expect(JSON.parse(pending.stdout)).toMatchObject({ tenant: 'acme', pending: [] })

    const refused = await team.digline(['delete', '--suite', 'cap', '--run', key])
    expect(refused.code, refused.stdout + refused.stderr).toBe(64)
    expect(refused.stderr).toContain('PromotedRunError')
    const store = new PostgresStore({ url: db.url })
    try {
      // the second run's key, read here rather than by one more `digline list` (ADR 0460)
      const latest = (await store.latestKey('acme', 'cap'))!
      expect(latest).toMatch(/^20261130T090000000001Z-/)
      const deleted = await team.digline(['delete', '--suite', 'cap', '--run', latest])
      expect(deleted.code, deleted.stdout + deleted.stderr).toBe(0)
      expect(await store.removalOf('acme', 'cap', latest)).toBeDefined()
      expect((await store.listRuns('acme', 'cap')).runs.map((r) => r.key)).toEqual([key])
    } finally {
      await store.end()
    }
  })

  test('DIGLINE_STORE names the team store for vitest run and for the CLI', async () => {
    const project = makeProject({ 'evals/env.eval.ts': countingSuite({ name: 'env', cases: 3 }) })
    const run = await project.vitest([], { DIGLINE_STORE: db.url, DIGLINE_CREATED_AT: AT })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(project.runFiles('acme', 'env')).toEqual([])
    const list = await project.digline(['list', '--suite', 'env', '--json'], { DIGLINE_STORE: db.url })
    expect(list.code, list.stderr).toBe(0)
    expect((JSON.parse(list.stdout) as { runs: unknown[] }).runs).toHaveLength(1)
    const local = await project.digline(['list', '--suite', 'env', '--json'])
    expect((JSON.parse(local.stdout) as { runs: unknown[] }).runs).toHaveLength(0)
  })
})

describe('a run killed on one machine is finished on another', () => {
  test('killed in one working directory, resumed from another working directory and HOME: no journaled case is called again, none is lost', async () => {
    const files = { 'vitest.config.ts': defaultConfig('acme', storeOption(db.url)), 'evals/killed.eval.ts': killSuite({ concurrency: 2, name: 'moved' }) }
    const first = makeProject(files)
    await killAfterCalls(first, 20, { DIGLINE_CREATED_AT: AT, HOME: mkdtempSync(join(installRoot(), 'home-a-')) })

    const store = new PostgresStore({ url: db.url })
    let journaled: string[]
    try {
      const [pending] = await store.pending('acme', 'moved')
      expect(pending?.refusal).toBeUndefined()
      journaled = [...pending!.done.keys()]
      expect(journaled.length).toBeGreaterThan(0)
    } finally {
      await store.end()
    }

    const second = makeProject(files)
    const resumed = await second.digline(['run', '--resume'], { HOME: mkdtempSync(join(installRoot(), 'home-b-')) })
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
    const calledAgain = callLines(second).map((line) => line.split(':')[0]!)
    expect(calledAgain.filter((id) => journaled.includes(id))).toEqual([])
    expect(new Set([...journaled, ...calledAgain]).size).toBe(100)

    // show --json and pending --json go through the CLI on the team store in the first test; here they are read in this process (ADR 0460)
    const doc = JSON.parse(await shownJson(db.url, 'moved')) as { results: { case_id: string }[] }
    expect(doc.results.map((r) => r.case_id)).toEqual(Array.from({ length: 100 }, (_, i) => `c${String(i).padStart(3, '0')}`))
    expect(await pendingRowsOf(db.url)).toEqual([])
    expect(readFileSync(join(first.dir, 'calls.log'), 'utf8').length).toBeGreaterThan(0)
  })
})
