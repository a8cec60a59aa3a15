// The calibration gate end to end (issue 27 item 4, ADR 0352), on the file store and on the team
// store: a suite whose judge has met no human label regresses only through that judge, so `vitest
// run` exits 2 naming the 30 labels missing; people's labels (review records appended through the
// store) bring it to 12, and `digline compare` still says not judged, 18 missing; at 30 labels with
// kappa 0.85 the same regression fails the run (exit 1), in a new `vitest run` and in `digline
// compare` of the first run alike. The keys are read and the baseline promoted through the store
// (list and promote have their own end-to-end tests): the launches and `compare` are processes.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { answerDigestOf } from '../../src/document/answer-digest.js'
import { openStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/contract.js'
import { newReview } from '../../src/store/review.js'
import { promoteFirst } from '../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { defaultConfig, makeProject, type Project } from '../helpers/project.js'

// 40 cases; with mode.txt saying "bad", every fourth answer is vague, which only the judge fails.
const suite = `import { evalSuite } from 'digline'
import { readFileSync } from 'node:fs'

const bad = readFileSync('mode.txt', 'utf8').trim() === 'bad'

evalSuite({
  name: 'graded',
  cases: Array.from({ length: 40 }, (_, i) => ({ id: 'c' + String(i).padStart(2, '0'), input: i })),
  target: (i) => (bad && i % 4 === 0 ? 'vague' : 'clear'),
  scorers: [
    { name: 'shape', score: ({ output }) => typeof output === 'string' },
    { name: 'judge', config: { model: 'rule-judge-v1' }, passAt: 0.5, score: ({ output }) => output === 'clear' },
  ],
  tolerances: { passRate: 0.05 },
  calibration: { minLabels: 30, minAgreement: 0.6 },
})
`

const AT = ['2026-12-01T08:00:00.000001Z', '2026-12-01T09:00:00.000001Z', '2026-12-01T10:00:00.000001Z']

/** Labels of the judge on cases `from`..`to` − 1 of the 30 labelled (the 10 it failed, then 20 it passed); it is wrong on c00 and c01. */
async function label(store: Store, key: string, from: number, to: number): Promise<void> {
  const run = await store.readRun('acme', 'graded', key)
  const failed = run.results.filter((r) => r.verdict === 'fail')
  const passed = run.results.filter((r) => r.verdict === 'pass').slice(0, 20)
  const chosen = [...failed, ...passed].slice(from, to)
  for (const [i, result] of chosen.entries()) {
    const wrong = result.case_id === 'c00' || result.case_id === 'c01'
    const judged = result.verdict === 'pass'
    await store.appendReview(
      newReview({
        reviewer: 'ana',
        tenant: 'acme',
        suite: 'graded',
        run: key,
        case_id: result.case_id,
        answer_digest: answerDigestOf(result),
        judges: { judge: wrong ? 'disagree' : 'agree' },
        verdict: judged !== wrong ? 'pass' : 'fail',
        note: null,
        created_at: `2026-12-01T09:30:${String(from + i).padStart(2, '0')}.000001Z`,
      }),
    )
  }
}

async function cycle(project: Project, store: Store): Promise<void> {
  project.write('mode.txt', 'good')
  const first = await project.vitest([], { DIGLINE_CREATED_AT: AT[0] })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  expect(first.stdout).toContain('judge judge: no human label yet: not calibrated')
  const baseKey = (await store.latestKey('acme', 'graded'))!
  await promoteFirst(store, await store.readRun('acme', 'graded', baseKey), '2026-12-01T08:30:00.000001Z')

  project.write('mode.txt', 'bad')
  const second = await project.vitest([], { DIGLINE_CREATED_AT: AT[1] })
  expect(second.code, second.stdout + second.stderr).toBe(2)
  expect(second.stdout).toContain('digline exit 2')
  expect(second.stdout).toContain('not judged the judge is not calibrated: the run fails only through judge judge')
  expect(second.stdout).toContain('0 of the 30 labels it needs (30 missing)')
  expect(second.stdout).toContain('digline view --suite graded')
  const runKey = (await store.latestKey('acme', 'graded'))!
  expect(runKey).not.toBe(baseKey)

  await label(store, runKey, 0, 12)
  const partly = await project.digline(['compare', '--suite', 'graded', '--run', runKey])
  expect(partly.code, partly.stdout + partly.stderr).toBe(2)
  expect(partly.stdout).toContain('12 of the 30 labels it needs (18 missing)')

  await label(store, runKey, 12, 30)
  const third = await project.vitest([], { DIGLINE_CREATED_AT: AT[2] })
  expect(third.code, third.stdout + third.stderr).toBe(1)
  expect(third.stdout).toMatch(/judge judge: kappa 0\.85, 95% interval \[0\.\d\d, 1\.00\], 30 labels of 30 answers, 93% agree: calibrated/)
  expect(third.stdout).toContain('regressed pass rate −25.0 points')
  const again = await project.digline(['compare', '--suite', 'graded', '--run', runKey, '--format', 'md'])
  expect(again.code, again.stdout + again.stderr).toBe(1)
  expect(again.stdout).toContain('**Judges against human labels:**')
  expect(again.stdout).toContain('- judge judge: kappa 0.85')
}

describe('a regression that rests on an uncalibrated judge', () => {
  test('file store: exit 2 with no label, 2 with 12 (18 missing), 1 with 30 at kappa 0.85', async () => {
    const project = makeProject({ 'evals/graded.eval.ts': suite })
    const store = openStore({ store: join(project.dir, '.digline') })
    try {
      await cycle(project, store)
    } finally {
      await store.close()
    }
  })

  describe('team store', () => {
    let db: TestDatabase
    beforeAll(async () => {
      db = await createTestDatabase('calibration')
    })
    afterAll(async () => {
      await db?.drop()
    })

    test('the same on PostgreSQL: labels appended to the team store reach the verdict', async () => {
      const project = makeProject({ 'vitest.config.ts': defaultConfig('acme', `, store: ${JSON.stringify(db.url)}`), 'evals/graded.eval.ts': suite })
      const store = openStore({ store: db.url })
      try {
        await cycle(project, store)
      } finally {
        await store.close()
      }
    })
  })
})
