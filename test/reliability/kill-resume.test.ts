// The kill test: a real `vitest run` SIGKILLed (whole process group) at a random point, then
// `digline run --resume`: the document is byte-identical to an uninterrupted run, and the target
// receives exactly the calls that were not journaled. Each kill is its own test with its own budget
// and prints its seed before it starts. DIGLINE_KILLS sets the number of kills (CI: 6; the long mode
// DIGLINE_RELIABILITY_LONG=1: 100); DIGLINE_KILL_SEED=S replays a cycle whose seed was S.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { makeProject, type Project } from '../helpers/project.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'
import { figure, LONG } from './support/figures.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'
const KILLS = Number(process.env.DIGLINE_KILLS ?? (LONG ? 100 : 6))
const BASE_SEED = Number(process.env.DIGLINE_KILL_SEED ?? Date.now() % 100000)
const env = { DIGLINE_CREATED_AT: CREATED_AT }

function documentSha(project: Project, suite = 'killed'): string {
  const files = project.runFiles('acme', suite)
  expect(files).toHaveLength(1)
  return createHash('sha256')
    .update(readFileSync(join(project.dir, '.digline', 'acme', 'runs', suite, files[0]!)))
    .digest('hex')
}

async function journaled(project: Project, suite = 'killed'): Promise<number> {
  const pending = await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', suite)
  expect(pending).toHaveLength(1)
  return pending[0]!.done.size
}

/** The kill point of a cycle: a call in 1..170 drawn from the cycle's seed (a seeded LCG, so it replays). */
function killPoint(seed: number): number {
  const next = (seed * 1103515245 + 12345) % 2 ** 31
  return 1 + Math.floor((next / 2 ** 31) * 170)
}

const CONCURRENCIES = [1, 8] as const

describe.each(CONCURRENCIES)('kill -9 at concurrency %i, then resume', (concurrency) => {
  let reference = ''
  const rerunCounts: number[] = []
  const cycles = Math.max(1, Math.round(KILLS / CONCURRENCIES.length))

  beforeAll(async () => {
    const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency, samples: 2 }) })
    const result = await project.vitest([], env)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    reference = documentSha(project)
  })

  afterAll(() => {
    if (rerunCounts.length === 0) return
    const worst = Math.max(...rerunCounts)
    const mean = rerunCounts.reduce((a, b) => a + b, 0) / rerunCounts.length
    figure('kills', rerunCounts.length, `kill -9 of the process group at concurrency ${concurrency}, then --resume; re-run cases per kill: worst ${worst}, mean ${mean.toFixed(1)}`)
  })

  test.each(Array.from({ length: cycles }, (_, i) => ({ cycle: i + 1, seed: BASE_SEED + i })))(
    'kill $cycle (seed $seed): byte-identical document, exactly the unjournaled calls re-paid',
    async ({ cycle, seed }) => {
      const k = killPoint(seed)
      console.log(
        `kill cycle ${cycle} at concurrency ${concurrency}: seed ${seed}, kill after call ${k} (replay: DIGLINE_KILL_SEED=${seed} DIGLINE_KILLS=2 npm run test:reliability -- kill-resume -t 'concurrency ${concurrency}, then resume kill 1 ')`,
      )
      const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency, samples: 2 }) })
      await killAfterCalls(project, k, env)
      const before = callLines(project).length
      const done = await journaled(project)
      const resumed = await project.digline(['run', '--resume'])
      const where = `seed ${seed}, kill at call ${k}`
      expect(resumed.code, `${where}\n${resumed.stdout}\n${resumed.stderr}`).toBe(0)
      expect(callLines(project).length - before, `${where}: calls in the resumed leg`).toBe((100 - done) * 2)
      expect(documentSha(project), where).toBe(reference)
      expect(resumed.stderr).toContain(`${100 - done} of 100 cases × 2 samples = ${(100 - done) * 2} calls to the target; ${done} case(s) already judged, 0 retried after an error`)
      // cases whose calls were made before the kill but whose record was not yet durable
      const startedCases = new Set(
        callLines(project)
          .slice(0, before)
          .map((l) => l.split(':')[0]),
      )
      const rerun = startedCases.size - done
      expect(rerun, `${where}: cases re-run`).toBeLessThanOrEqual(concurrency)
      rerunCounts.push(rerun)
    },
  )
})

test('a run killed twice and resumed twice (three legs) is byte-identical too', async () => {
  const reference = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 4 }) })
  expect((await reference.vitest([], env)).code).toBe(0)
  const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 4 }) })
  await killAfterCalls(project, 30, env)
  const firstKill = callLines(project).length
  // the second leg is a resume, killed in turn
  await killAfterCalls(project, firstKill + 30, {}, ['run', '--resume'])
  const legs = (await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'killed'))[0]!.legs
  expect(legs).toEqual([1, 2])
  const third = await project.digline(['run', '--resume'])
  expect(third.code, third.stdout + third.stderr).toBe(0)
  expect(documentSha(project)).toBe(documentSha(reference))
  expect(await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'killed')).toEqual([])
  figure('kills', 2, 'one run killed twice (the second time in its resume) and resumed twice')
})
