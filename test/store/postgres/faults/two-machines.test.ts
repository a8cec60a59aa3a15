// Two machines write the same run of the team store: machine A runs a suite and is still writing it
// when machine B (another working directory, HOME and host name) asks to resume or delete the run;
// both are refused by name (LiveRunError naming A's process and host) and change nothing. A is then
// SIGKILLed: its lease stops being renewed, B is still refused until the lease expires on its own,
// and then B resumes the run: the cases A journaled are not called again, and the document is
// byte-identical to an uninterrupted run on the file store.
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../helpers/postgres.js'
import { pendingRowsOf } from '../../../e2e/store-reads.js'
import { assertMachinesPossible, machine, processGroupOf } from './machines.js'
import { CASES, caseRecordCounts, CREATED_AT, faultSuite, linesOf, onlyPending, pendingOf, referenceSha, storedShas, teamFiles, untilLeasesExpired } from './team-run.js'

const SUITE = 'shared'
const HELD_AT = 10
const suiteFile = faultSuite({ name: SUITE, concurrency: 2, holdFrom: HELD_AT })

let db: TestDatabase
let reference: string
beforeAll(async () => {
  assertMachinesPossible()
  db = await createTestDatabase('two_machines')
  reference = await referenceSha(suiteFile, SUITE)
})
afterAll(async () => {
  await db?.drop()
})

test('machine B is refused by name while machine A holds the run, and resumes it once A was killed and its lease expired', { timeout: 240_000 }, async () => {
  const files = teamFiles(db.url, suiteFile, SUITE)
  const a = machine('machine-a', files)
  const b = machine('machine-b', files)
  writeFileSync(join(a.dir, 'hold'), '')
  const running = a.spawnVitest([], { DIGLINE_CREATED_AT: CREATED_AT })
  try {
    // A journals cases c000…c009, then its target holds.
    const deadline = Date.now() + 90_000
    let pending = await pendingOf(db.url, SUITE)
    while (pending?.done.size !== HELD_AT) {
      if (running.exitCode !== null || Date.now() > deadline) throw new Error(`machine A stopped before journaling ${HELD_AT} cases:\n${(await running.done).stderr}`)
      await new Promise((r) => setTimeout(r, 200))
      pending = await pendingOf(db.url, SUITE)
    }
    const key = pending.key
    expect(pending.leases).toEqual([expect.objectContaining({ leg: 1, live: true, lease: expect.objectContaining({ host: 'machine-a' }) })])
    const writer = pending.leases[0]!.lease.pid
    expect(processGroupOf(writer), 'the lease names a process of machine A').toBe(running.pid)
    const before = await db.snapshot()

    const resume = await b.digline(['run', '--resume', key])
    expect(resume.code, resume.stdout + resume.stderr).toBe(64)
    expect(resume.stderr).toContain('LiveRunError')
    expect(resume.stderr).toContain(`process ${writer} on host machine-a`)
    const deleted = await b.digline(['delete', '--suite', SUITE, '--run', key])
    expect(deleted.code, deleted.stdout + deleted.stderr).toBe(64)
    expect(deleted.stderr).toContain('LiveRunError')
    expect(deleted.stderr).toContain(`process ${writer} on host machine-a`)
    expect(linesOf(b.dir, 'calls.log')).toEqual([])
    expect(await db.snapshot()).toEqual(before)

    // A dies without a word: its lease is no longer renewed, but B cannot know A is dead until it expires.
    process.kill(-running.pid!, 'SIGKILL')
    await running.done
    const stillHeld = await b.digline(['run', '--resume', key])
    expect(stillHeld.code, stillHeld.stdout + stillHeld.stderr).toBe(64)
    expect(stillHeld.stderr).toContain('LiveRunError')
    const waited = await untilLeasesExpired(db.url, SUITE)
    console.log(`two machines: machine A's lease expired ${waited} ms after B's refused resume that followed the kill`)

    const done = [...(await onlyPending(db.url, SUITE)).done.keys()]
    const journaled = done.length
    expect(journaled).toBe(HELD_AT)
    expect(await caseRecordCounts(db, SUITE, key)).toEqual(new Map(done.map((id) => [id, 1])))
    const resumed = await b.digline(['run', '--resume', key])
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(`${CASES - journaled} of ${CASES} cases × 1 sample = ${CASES - journaled} calls to the target; ${journaled} case(s) already judged`)
    const calledOnB = linesOf(b.dir, 'calls.log').map((l) => l.split(':')[0]!)
    expect(calledOnB).toHaveLength(CASES - journaled)
    expect(calledOnB.filter((id) => done.includes(id))).toEqual([])
    expect(new Set([...done, ...calledOnB]).size).toBe(CASES)
    expect(await storedShas(db, SUITE)).toEqual([reference])
    expect(await caseRecordCounts(db, SUITE, key)).toEqual(new Map())
    // what `digline pending --json` lists, read in this process (ADR 0460)
    expect(await pendingRowsOf(db.url, 'acme')).toEqual([])
  } finally {
    if (running.exitCode === null && running.signalCode === null) process.kill(-running.pid!, 'SIGKILL')
    rmSync(join(a.dir, 'hold'), { force: true })
  }
})
