// kill -9 of a team-store writer while a case's record is being committed, then the run resumed on
// another machine. The target tells this test (SIGUSR2) right before it returns; after the k-th
// return the test waits a random 0–3 ms, which is about one journal INSERT on this server, and
// SIGKILLs machine A's whole process group, so the kill lands before, during or after the commit of
// that case's record. Machine B (own directory, HOME, host name) waits for A's lease to expire and
// resumes: every case is journaled once or not at all, none is lost, none is called again after it
// was journaled, and the document is byte-identical to an uninterrupted run with the same created_at.
// Each kill is its own test (they run at once, so their lease expiries overlap); DIGLINE_PG_KILLS
// sets how many (default 4), DIGLINE_PG_KILL_SEED replays a seed.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { seededRandom } from '../../../../src/stats/prng.js'
import { createTestDatabase, type TestDatabase } from '../../../helpers/postgres.js'
import { assertMachinesPossible, machine } from './machines.js'
import { CASES, caseRecordCounts, CREATED_AT, faultSuite, linesOf, onlyPending, referenceSha, storedShas, teamFiles, untilLeasesExpired } from './team-run.js'

const SUITE = 'commits'
const KILLS = Number(process.env.DIGLINE_PG_KILLS ?? 4)
const BASE_SEED = Number(process.env.DIGLINE_PG_KILL_SEED ?? Date.now() % 100000)
const CONCURRENCIES = [1, 4] as const

/** The tests waiting for a given count of returns, woken by every SIGUSR2 a target sends. */
const armed = new Set<() => void>()
const onReturn = (): void => {
  for (const check of armed) check()
}

const databases: TestDatabase[] = []
const references = new Map<number, string>()
const tally = { committed: 0, notCommitted: 0 }
beforeAll(async () => {
  assertMachinesPossible()
  process.on('SIGUSR2', onReturn)
  for (const concurrency of CONCURRENCIES) references.set(concurrency, await referenceSha(faultSuite({ name: SUITE, concurrency }), SUITE))
})
afterAll(async () => {
  process.off('SIGUSR2', onReturn)
  await Promise.all(databases.map((d) => d.drop()))
  console.log(
    `kill mid-commit: ${tally.committed + tally.notCommitted} kills; the record of the case that had just returned was committed ${tally.committed} times, not ${tally.notCommitted} times`,
  )
})

function spin(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // a busy wait: a timer's granularity is coarser than the commit it aims at
  }
}

const cycles = Array.from({ length: KILLS }, (_, i) => ({ cycle: i + 1, seed: BASE_SEED + i, concurrency: CONCURRENCIES[i % CONCURRENCIES.length]! }))

describe.concurrent('kill -9 while a record commits, resumed on another machine', () => {
  test.each(cycles)(
    'kill $cycle (seed $seed, concurrency $concurrency): nothing lost, nothing counted twice, byte-identical document',
    { timeout: 240_000 },
    async ({ cycle, seed, concurrency }) => {
      const random = seededRandom(seed)
      const k = 5 + Math.floor(random() * (CASES - 10))
      const delayMs = random() * 3
      console.log(
        `kill cycle ${cycle}: seed ${seed}, concurrency ${concurrency}, kill ${delayMs.toFixed(2)} ms after return ${k} (replay: DIGLINE_PG_KILL_SEED=${seed} DIGLINE_PG_KILLS=1)`,
      )
      const db = await createTestDatabase(`kill_${cycle}`)
      databases.push(db)
      // Cases from k + 2 × concurrency on wait on A's `hold` file: A's returns reach k whatever the
      // order its cases end in, and A cannot finish (and file its document) before the kill, however
      // late this process, busy with the other cycles, handles the signal. B has no hold file.
      const holdFrom = Math.min(k + 2 * concurrency, CASES - 1)
      const files = teamFiles(db.url, faultSuite({ name: SUITE, concurrency, holdFrom }), SUITE)
      const a = machine(`machine-a${cycle}`, files)
      const b = machine(`machine-b${cycle}`, files)
      writeFileSync(join(a.dir, 'hold'), '')

      const running = a.spawnVitest([], { DIGLINE_CREATED_AT: CREATED_AT, RETURNS_TO: String(process.pid) })
      let returnedBeforeKill: string[] | undefined
      const check = (): void => {
        const returned = linesOf(a.dir, 'returns.log')
        if (returned.length < k || returnedBeforeKill !== undefined) return
        spin(delayMs)
        process.kill(-running.pid!, 'SIGKILL')
        returnedBeforeKill = returned
      }
      armed.add(check)
      const ended = await running.done.finally(() => armed.delete(check))
      if (returnedBeforeKill === undefined) throw new Error(`machine A ended before return ${k}:\n${ended.stderr}`)
      expect(returnedBeforeKill.length, 'returns before the kill (the held cases never return)').toBeLessThanOrEqual(holdFrom)
      expect(ended.signal).toBe('SIGKILL')

      await untilLeasesExpired(db.url, SUITE)
      const pending = await onlyPending(db.url, SUITE)
      const done = [...pending.done.keys()]
      // A record is committed only for a case whose target had returned; each at most once.
      const returned = new Set(linesOf(a.dir, 'returns.log').map((l) => l.split(':')[0]!))
      expect(done.filter((id) => !returned.has(id))).toEqual([])
      expect(await caseRecordCounts(db, SUITE, pending.key)).toEqual(new Map(done.map((id) => [id, 1])))
      const last = returnedBeforeKill.at(-1)!.split(':')[0]!
      if (done.includes(last)) tally.committed += 1
      else tally.notCommitted += 1

      const resumed = await b.digline(['run', '--resume', pending.key])
      expect(resumed.code, `seed ${seed}\n${resumed.stdout}\n${resumed.stderr}`).toBe(0)
      const calledOnB = linesOf(b.dir, 'calls.log').map((l) => l.split(':')[0]!)
      expect(
        calledOnB.filter((id) => done.includes(id)),
        'journaled cases called again',
      ).toEqual([])
      expect(calledOnB).toHaveLength(CASES - done.length)
      expect(new Set([...done, ...calledOnB]).size).toBe(CASES)
      expect(await storedShas(db, SUITE), `seed ${seed}`).toEqual([references.get(concurrency)])
      expect(await caseRecordCounts(db, SUITE, pending.key)).toEqual(new Map())
    },
  )
})
