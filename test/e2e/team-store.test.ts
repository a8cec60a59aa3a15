// The team store end to end, on a real PostgreSQL server: a `vitest run` with `store: 'postgres://…'`
// SIGKILLed in one working directory and HOME, finished by `digline run --resume` from another, then
// the CLI on it; `list`/`show --json` give the same bytes as an uninterrupted `vitest run` of the same
// suite on the file store (its CLI read in-process, ADR 0470), whose project then runs into the team
// store through DIGLINE_STORE (the run compare reads).
import { mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PostgresStore } from '../../src/store/postgres/store.js'
import { callLines, killSuite, killWhen } from '../helpers/kill.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { defaultConfig, installRoot, makeProject } from '../helpers/project.js'
import { inProcess } from './cli-in-process.js'
import { pendingRowsOf } from './store-reads.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('e2e')
})
afterAll(async () => {
  await db?.drop()
})

const AT = '2026-11-30T08:00:00.000001Z'
const AT_2 = '2026-11-30T09:00:00.000001Z'
const CASES = 40

function storeOption(url: string): string {
  return `, store: ${JSON.stringify(url)}`
}

describe('a suite run into the team store, finished on another machine, and the CLI on it', () => {
  test('vitest run with store: postgres://… killed in one working directory, resumed from another working directory and HOME (no journaled case called again, none lost); then list, show --json (the same bytes as the file store), promote, DIGLINE_STORE, compare, pending, delete', async () => {
    const suite = killSuite({ concurrency: 2, name: 'cap', cases: CASES })
    const files = { 'vitest.config.ts': defaultConfig('acme', storeOption(db.url)), 'evals/cap.eval.ts': suite }
    const first = makeProject(files)
    // asked every 20 ms, not 2: a few calls past the half leave the run unfinished all the same
    await killWhen(
      first,
      `${CASES / 2} calls`,
      () => callLines(first).length >= CASES / 2,
      { DIGLINE_CREATED_AT: AT, HOME: mkdtempSync(join(installRoot(), 'home-a-')) },
      undefined,
      20,
    )
    expect(first.runFiles('acme', 'cap')).toEqual([])

    const store = new PostgresStore({ url: db.url })
    try {
      const [pending] = await store.pending('acme', 'cap')
      expect(pending?.refusal).toBeUndefined()
      const journaled = [...pending!.done.keys()]
      expect(journaled.length).toBeGreaterThan(0)

      const team = makeProject(files)
      const resumed = await team.digline(['run', '--resume'], { HOME: mkdtempSync(join(installRoot(), 'home-b-')) })
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
      expect(team.runFiles('acme', 'cap')).toEqual([])
      const calledAgain = callLines(team).map((line) => line.split(':')[0]!)
      expect(calledAgain.filter((id) => journaled.includes(id))).toEqual([])
      expect(new Set([...journaled, ...calledAgain]).size).toBe(CASES)
      expect(readFileSync(join(first.dir, 'calls.log'), 'utf8').length).toBeGreaterThan(0)
      expect(await pendingRowsOf(db.url)).toEqual([])

      // the same suite uninterrupted, on the file store: the resumed document is byte-identical to it
      const local = makeProject({ 'evals/cap.eval.ts': suite })
      const localRun = await local.vitest([], { DIGLINE_CREATED_AT: AT })
      expect(localRun.code, localRun.stdout + localRun.stderr).toBe(0)

      const list = await team.digline(['list', '--suite', 'cap', '--json'])
      expect(list.code, list.stderr).toBe(0)
      const listed = JSON.parse(list.stdout) as { runs: { key: string }[] }
      expect(listed.runs).toHaveLength(1)
      const key = listed.runs[0]!.key
      expect(key).toMatch(/^20261130T080000000001Z-/)
      const localList = await inProcess(local, ['list', '--suite', 'cap', '--json'])
      expect(localList.code, localList.stderr).toBe(0)
      expect(list.stdout).toBe(localList.stdout)

      const shown = await team.digline(['show', '--suite', 'cap', '--run', key, '--json'])
      expect(shown.code, shown.stderr).toBe(0)
      const localShown = await inProcess(local, ['show', '--suite', 'cap', '--run', key, '--json'])
      expect(localShown.code, localShown.stderr).toBe(0)
      expect(shown.stdout).toBe(localShown.stdout)
      const doc = JSON.parse(shown.stdout) as { results: { case_id: string }[] }
      expect(doc.results.map((r) => r.case_id)).toEqual(Array.from({ length: CASES }, (_, i) => `c${String(i).padStart(3, '0')}`))

      const promoted = await team.digline(['promote', '--suite', 'cap', '--run', key])
      expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
      // issue 23 item 20: rows in the team store are not files a person commits
      expect(promoted.stdout).toContain('there is nothing to commit')
      expect(promoted.stdout).not.toMatch(/^Commit /m)

      // DIGLINE_STORE names the team store for vitest run and for the CLI; without it, the file store
      const second = await local.vitest([], { DIGLINE_STORE: db.url, DIGLINE_CREATED_AT: AT_2 })
      expect(second.code, second.stdout + second.stderr).toBe(0)
      expect(local.runFiles('acme', 'cap')).toHaveLength(1)
      const envList = await inProcess(local, ['list', '--suite', 'cap', '--json'], { DIGLINE_STORE: db.url })
      expect(envList.code, envList.stderr).toBe(0)
      expect((JSON.parse(envList.stdout) as { runs: unknown[] }).runs).toHaveLength(2)
      const fileList = await inProcess(local, ['list', '--suite', 'cap', '--json'])
      expect((JSON.parse(fileList.stdout) as { runs: unknown[] }).runs).toHaveLength(1)

      const compared = await team.digline(['compare', '--suite', 'cap', '--run', 'latest', '--json'])
      expect(compared.code, compared.stdout + compared.stderr).toBe(0)
      expect((JSON.parse(compared.stdout) as { baseline: { key?: string } | null }).baseline).not.toBeNull()

      const pendingCli = await team.digline(['pending', '--json'])
      expect(pendingCli.code, pendingCli.stderr).toBe(0)
      expect(JSON.parse(pendingCli.stdout)).toMatchObject({ tenant: 'acme', pending: [] })

      const refused = await inProcess(team, ['delete', '--suite', 'cap', '--run', key])
      expect(refused.code, refused.stdout + refused.stderr).toBe(64)
      expect(refused.stderr).toContain('PromotedRunError')
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
  }, 400_000)
})
