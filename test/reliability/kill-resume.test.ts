// The kill test: a real `vitest run` SIGKILLed (whole process group) at a random point, then
// `digline run --resume`: the document is byte-identical to an uninterrupted run, and the target
// receives exactly the calls that were not journaled. DIGLINE_KILLS sets the number of kills.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file-store.js'
import { makeProject, type Project } from '../helpers/project.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'
const KILLS = Number(process.env.DIGLINE_KILLS ?? 20)
const env = { DIGLINE_CREATED_AT: CREATED_AT }

function documentSha(project: Project, suite = 'killed'): string {
  const files = project.runFiles('acme', suite)
  expect(files).toHaveLength(1)
  return createHash('sha256').update(readFileSync(join(project.dir, '.digline', 'acme', 'runs', suite, files[0]!))).digest('hex')
}

async function journaled(project: Project, suite = 'killed'): Promise<number> {
  const pending = await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', suite)
  expect(pending).toHaveLength(1)
  return pending[0]!.done.size
}

// A seeded PRNG so a failing kill point can be reproduced from the printed seed.
function prng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

describe.each([1, 8])('kill -9 at concurrency %i, then resume', (concurrency) => {
  const reference = new Map<number, string>()

  test('the uninterrupted reference run', async () => {
    const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency, samples: 2 }) })
    const result = await project.vitest([], env)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    reference.set(concurrency, documentSha(project))
  })

  const iterations = Math.max(1, Math.round(KILLS / 2))
  test(`${iterations} kills at random points: byte-identical documents, exactly the unjournaled calls re-paid`, async () => {
    const seed = Number(process.env.DIGLINE_KILL_SEED ?? Date.now() % 100000)
    const random = prng(seed)
    let worst = 0
    const rerunCounts: number[] = []
    for (let i = 0; i < iterations; i++) {
      const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency, samples: 2 }) })
      const k = 1 + Math.floor(random() * 170)
      await killAfterCalls(project, k, env)
      const before = callLines(project).length
      const done = await journaled(project)
      const resumed = await project.digline(['run', '--resume'])
      expect(resumed.code, `seed ${seed} kill ${i} at call ${k}\n${resumed.stdout}\n${resumed.stderr}`).toBe(0)
      const after = callLines(project).length - before
      expect(after, `seed ${seed}: calls in the resumed leg`).toBe((100 - done) * 2)
      expect(documentSha(project), `seed ${seed} kill ${i} at call ${k}`).toBe(reference.get(concurrency))
      expect(resumed.stderr).toContain(`${100 - done} of 100 cases × 2 samples = ${(100 - done) * 2} calls to the target; ${done} case(s) already judged, 0 retried after an error`)
      // cases whose calls were made before the kill but whose record was not yet durable
      const startedCases = new Set(callLines(project).slice(0, before).map((l) => l.split(':')[0]))
      const rerun = startedCases.size - done
      rerunCounts.push(rerun)
      worst = Math.max(worst, rerun)
    }
    console.log(`kill test, concurrency ${concurrency}: ${iterations} kills (seed ${seed}); re-run cases per kill: worst ${worst}, mean ${(rerunCounts.reduce((a, b) => a + b, 0) / iterations).toFixed(1)}`)
    expect(worst).toBeLessThanOrEqual(concurrency)
  })
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
})
