// The kill test: a real `vitest run` SIGKILLed (whole process group), then `digline run --resume`:
// the document is byte-identical to an uninterrupted run, and the target receives exactly the calls
// that were not journaled. CI kills once in each situation a resume meets (ADR 0505): before the
// first record (concurrency 1), mid-run, and in the resume with every case but the last journaled,
// the document not yet filed (concurrency 8, one run of three legs). A hold file keeps each run from
// getting past the point its kill is meant for, however late the kill lands. More kills at random points add rounds,
// not situations: DIGLINE_KILLS sets their number (CI: none; the long mode DIGLINE_RELIABILITY_LONG=1:
// 100), each its own test that prints its seed first; DIGLINE_KILL_SEED=S replays a seed.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { makeProject, type Project } from '../helpers/project.js'
import { callLines, killAfterCalls, killSuite, killWhen } from '../helpers/kill.js'
import { figure, LONG } from './support/figures.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'
const KILLS = Number(process.env.DIGLINE_KILLS ?? (LONG ? 100 : 0))
const BASE_SEED = Number(process.env.DIGLINE_KILL_SEED ?? Date.now() % 100000)
const env = { DIGLINE_CREATED_AT: CREATED_AT }
const CASES = 100
const SAMPLES = 2

const suiteAt = (concurrency: number) => killSuite({ concurrency, samples: SAMPLES, holdFile: 'hold' })

function documentSha(project: Project, suite = 'killed'): string {
  const files = project.runFiles('acme', suite)
  expect(files).toHaveLength(1)
  return createHash('sha256')
    .update(readFileSync(join(project.dir, '.digline', 'acme', 'runs', suite, files[0]!)))
    .digest('hex')
}

async function pending(project: Project, suite = 'killed') {
  return new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', suite)
}

async function journaled(project: Project): Promise<number> {
  const found = await pending(project)
  expect(found, 'a pending run, its document not filed').toHaveLength(1)
  return found[0]!.done.size
}

// The document does not depend on the concurrency (it is not in the document), so one uninterrupted
// run is the reference of every kill; a difference would fail every kill, never pass one.
let referenceRun: Promise<string> | undefined
function reference(): Promise<string> {
  referenceRun ??= (async () => {
    const project = makeProject({ 'evals/killed.eval.ts': suiteAt(8) })
    const result = await project.vitest([], env)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    return documentSha(project)
  })()
  return referenceRun
}

/** The kill point of a cycle: a call in 1..span drawn from the cycle's seed (a seeded LCG, so it replays). */
function killPoint(seed: number, span = 170): number {
  const next = (seed * 1103515245 + 12345) % 2 ** 31
  return 1 + Math.floor((next / 2 ** 31) * span)
}

const LAST = `c${String(CASES - 1).padStart(3, '0')}`

/** The kill condition of a run whose last case holds: every other case journaled, a call of the last made (after call `from`). */
const allButLastJournaled =
  (project: Project, from = 0) =>
  async () =>
    callLines(project)
      .slice(from)
      .some((l) => l.startsWith(`${LAST}:`)) && (await pending(project))[0]?.done.size === CASES - 1

const rerunCounts = new Map<number, number[]>()

/**
 * Resumes a killed run and checks it: exactly the unjournaled calls, the resume's count line, at most
 * `concurrency` cases re-run, and the reference document. Returns the journaled cases at the kill.
 */
async function resumeAndCheck(project: Project, concurrency: number, where: string): Promise<number> {
  const before = callLines(project).length
  const done = await journaled(project)
  rmSync(join(project.dir, 'hold'), { force: true })
  const resumed = await project.digline(['run', '--resume'])
  expect(resumed.code, `${where}\n${resumed.stdout}\n${resumed.stderr}`).toBe(0)
  expect(callLines(project).length - before, `${where}: calls in the resumed leg`).toBe((CASES - done) * SAMPLES)
  expect(documentSha(project), where).toBe(await reference())
  expect(resumed.stderr).toContain(
    `${CASES - done} of ${CASES} cases × 2 samples = ${(CASES - done) * SAMPLES} calls to the target; ${done} case(s) already judged, 0 retried after an error`,
  )
  expect(await pending(project), `${where}: nothing left pending`).toEqual([])
  // cases whose calls were made before the kill but whose record was not yet durable
  const startedCases = new Set(
    callLines(project)
      .slice(0, before)
      .map((l) => l.split(':')[0]),
  )
  const rerun = startedCases.size - done
  expect(rerun, `${where}: cases re-run`).toBeLessThanOrEqual(concurrency)
  rerunCounts.set(concurrency, [...(rerunCounts.get(concurrency) ?? []), rerun])
  return done
}

afterAll(() => {
  for (const [concurrency, counts] of rerunCounts) {
    const worst = Math.max(...counts)
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length
    figure('kills', counts.length, `kill -9 of the process group at concurrency ${concurrency}, then --resume; re-run cases per kill: worst ${worst}, mean ${mean.toFixed(1)}`)
  }
})

describe('kill -9 in each situation, then resume', () => {
  test('before the first record (concurrency 1, every call held once made): the one call in flight is made again', async () => {
    const project = makeProject({ 'evals/killed.eval.ts': suiteAt(1), hold: '' })
    await killWhen(project, 'the first call', () => callLines(project).length >= 1, env, undefined, 50)
    expect(callLines(project), 'the call in flight at the kill').toEqual(['c000:0'])
    expect(await journaled(project), 'records journaled before the kill').toBe(0)
    await resumeAndCheck(project, 1, 'killed before the first record')
  }, 300_000)

  test('mid-run, then in the resume with every case but the last journaled, then resumed (three legs, concurrency 8)', async () => {
    // a seeded kill point (printed, so a failure replays); the last case holds in the first two legs,
    // so neither can file the document before its kill
    const seed = BASE_SEED
    const first = 40 + killPoint(seed, 80)
    console.log(`three legs: seed ${seed}, the first leg killed after call ${first} (replay: DIGLINE_KILL_SEED=${seed})`)
    const project = makeProject({ 'evals/killed.eval.ts': suiteAt(8), hold: String(CASES - 1) })
    await killWhen(project, `${first} calls`, () => callLines(project).length >= first, env, undefined, 20)
    const { done } = (await pending(project))[0]!
    expect(done.size, `seed ${seed}: the first kill lands mid-run`).toBeGreaterThan(0)
    const started = new Set(callLines(project).map((l) => l.split(':')[0])).size
    expect(started - done.size, `seed ${seed}: cases re-run after the first kill`).toBeLessThanOrEqual(8)
    const firstLeg = callLines(project).length
    await killWhen(project, `${CASES - 1} records`, allButLastJournaled(project, firstLeg), {}, ['run', '--resume'], 50)
    expect((await pending(project))[0]!.legs).toEqual([1, 2])
    const secondLegCases = [
      ...new Set(
        callLines(project)
          .slice(firstLeg)
          .map((l) => l.split(':')[0]),
      ),
    ].sort()
    const notJournaled = Array.from({ length: CASES }, (_, i) => `c${String(i).padStart(3, '0')}`).filter((id) => !done.has(id))
    expect(secondLegCases, `seed ${seed}: the cases the second leg called are those the first did not journal`).toEqual(notJournaled)
    expect(await resumeAndCheck(project, 8, `seed ${seed}, killed in the resume`)).toBe(CASES - 1)
    figure('kills', 2, 'one run killed twice (the second time in its resume, before it could file the document) and resumed twice')
  }, 300_000)
})

// The long mode: kills at random points, per concurrency.
describe.runIf(KILLS > 0).each([1, 8])('kill -9 at concurrency %i, then resume', (concurrency) => {
  const cycles = Math.max(1, Math.round(KILLS / 2))
  test.each(Array.from({ length: cycles }, (_, i) => ({ cycle: i + 1, seed: BASE_SEED + i })))(
    'kill $cycle (seed $seed): byte-identical document, exactly the unjournaled calls re-paid',
    async ({ cycle, seed }) => {
      const k = killPoint(seed)
      console.log(
        `kill cycle ${cycle} at concurrency ${concurrency}: seed ${seed}, kill after call ${k} (replay: DIGLINE_KILL_SEED=${seed} DIGLINE_KILLS=2 npm run test:reliability -- kill-resume -t 'concurrency ${concurrency}, then resume kill 1 ')`,
      )
      const project = makeProject({ 'evals/killed.eval.ts': suiteAt(concurrency) })
      await killAfterCalls(project, k, env)
      await resumeAndCheck(project, concurrency, `seed ${seed}, kill at call ${k}`)
    },
  )
})
