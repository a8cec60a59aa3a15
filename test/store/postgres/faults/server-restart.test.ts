// The PostgreSQL server restarted under a running suite. Twice: once while the target holds (every
// pooled connection dies idle: the run reconnects and finishes), once while appends are under way
// (the run rides it out, or fails by name and is resumed once the server is back). Either way no
// case is lost or counted twice and the document is byte-identical to an uninterrupted run.
// A restart breaks every other test using the server at that moment: this file is in the TIMED
// project of test/vitest.config.ts, which runs its files one at a time after the parallel ones.
// DIGLINE_TEST_PG_RESTART overrides the restart command (default: the Debian cluster's pg_ctlcluster).
import { execFileSync, execSync } from 'node:child_process'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { PG_BASE_URL, createTestDatabase, type TestDatabase } from '../../../helpers/postgres.js'
import { makeProject } from '../../../helpers/project.js'
import { CASES, caseRecordCounts, CREATED_AT, faultSuite, linesOf, onlyPending, pendingOf, referenceSha, storedShas, teamFiles } from './team-run.js'

const SUITE = 'restarted'

function restartServer(): void {
  const command = process.env.DIGLINE_TEST_PG_RESTART
  if (command !== undefined && command !== '') execSync(command, { stdio: 'inherit', timeout: 120_000 })
  else {
    const version = readdirSync('/etc/postgresql')[0]
    if (version === undefined) throw new Error('no Debian cluster under /etc/postgresql: set DIGLINE_TEST_PG_RESTART to the command that restarts the test server')
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '--mode', 'fast', version, 'main', 'restart'], { stdio: 'inherit', timeout: 120_000 })
  }
}

/** Waits until the server accepts connections again (pg_isready), for up to a minute. */
async function untilReady(): Promise<void> {
  const url = new URL(PG_BASE_URL)
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      execFileSync('pg_isready', ['-q', '-h', url.hostname, '-p', url.port || '5432'], { timeout: 10_000 })
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error('the PostgreSQL server did not come back within a minute of its restart', { cause: error })
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}

async function untilCalls(dir: string, count: number, running: { exitCode: number | null }): Promise<void> {
  const deadline = Date.now() + 90_000
  while (linesOf(dir, 'calls.log').length < count) {
    if (running.exitCode !== null || Date.now() > deadline) throw new Error(`the run ended (or stalled) before ${count} calls`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

let db: TestDatabase
let restarts = 0
beforeAll(async () => {
  db = await createTestDatabase('restart')
})
afterAll(async () => {
  await untilReady()
  await db?.drop()
  console.log(`server restarts by this file: ${restarts}`)
})

test('restarted while the target holds: the run reconnects and finishes; byte-identical document', { timeout: 240_000 }, async () => {
  const suiteFile = faultSuite({ name: SUITE, concurrency: 2, holdFrom: 30 })
  const reference = await referenceSha(suiteFile, SUITE)
  const project = makeProject(teamFiles(db.url, suiteFile, SUITE))
  writeFileSync(join(project.dir, 'hold'), '')
  const running = project.spawnVitest([], { DIGLINE_CREATED_AT: CREATED_AT })
  try {
    await untilCalls(project.dir, 32, running)
    const deadline = Date.now() + 60_000
    while ((await pendingOf(db.url, SUITE))?.done.size !== 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    restarts += 1
    restartServer()
    await untilReady()
  } finally {
    rmSync(join(project.dir, 'hold'), { force: true })
  }
  const result = await running.done
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(linesOf(project.dir, 'calls.log')).toHaveLength(CASES)
  expect(await storedShas(db, SUITE)).toEqual([reference])
  await db.truncate()
})

test(
  'restarted while appends are under way: the run rides it out or fails by name; resumed, nothing lost or counted twice, byte-identical document',
  { timeout: 240_000 },
  async () => {
    const suiteFile = faultSuite({ name: SUITE, concurrency: 2, delayMs: 60 })
    const reference = await referenceSha(suiteFile, SUITE)
    const project = makeProject(teamFiles(db.url, suiteFile, SUITE))
    const running = project.spawnVitest([], { DIGLINE_CREATED_AT: CREATED_AT })
    await untilCalls(project.dir, 20, running)
    restarts += 1
    restartServer()
    const result = await running.done
    await untilReady()
    const output = result.stdout + result.stderr
    if (result.code === 0) {
      console.log('server restart mid-appends: the run rode it out (its appends retried until the server was back)')
      expect(linesOf(project.dir, 'calls.log')).toHaveLength(CASES)
    } else {
      console.log(`server restart mid-appends: the run failed by name (exit ${result.code}) and was resumed`)
      expect(output).toMatch(/TeamStoreUnreachableError|StoreWriteError/)
      expect(output).not.toMatch(/\n\s+at .*node_modules\/pg/)
      const pending = await onlyPending(db.url, SUITE)
      const done = [...pending.done.keys()]
      expect(await caseRecordCounts(db, SUITE, pending.key)).toEqual(new Map(done.map((id) => [id, 1])))
      const before = linesOf(project.dir, 'calls.log').length
      const resumed = await project.digline(['run', '--resume', pending.key])
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
      const calledAgain = linesOf(project.dir, 'calls.log')
        .slice(before)
        .map((l) => l.split(':')[0]!)
      expect(calledAgain.filter((id) => done.includes(id))).toEqual([])
      expect(calledAgain).toHaveLength(CASES - done.length)
    }
    expect(await storedShas(db, SUITE)).toEqual([reference])
    expect(await pendingOf(db.url, SUITE)).toBeUndefined()
  },
)
