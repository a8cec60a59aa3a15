// Review records as files (docs/adr/0341): where they are kept, that a delete takes them off the
// disk, and that labels an interrupted delete left behind are never listed and go when it is repeated.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { answerDigestOf } from '../../../src/document/answer-digest.js'
import { newReview } from '../../../src/store/review.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { makeTempStore, type TempStore } from '../temp-store.js'

let temp: TempStore | undefined
afterEach(() => temp?.cleanup())

function labelOf(run: ReturnType<typeof makeRun>, note: string) {
  return newReview({
    reviewer: 'ana@example.com',
    tenant: 'acme',
    suite: 'capitals',
    run: keyOf(run),
    case_id: run.results[0]!.case_id,
    answer_digest: answerDigestOf(run.results[0]!),
    judges: { exact: 'disagree' },
    verdict: 'fail',
    note,
    created_at: '2026-12-02T10:00:00.000001Z',
  })
}

test('a label is one file beside its run, ignored by git with the runs, and removed from disk by the run delete', async () => {
  temp = makeTempStore()
  const { store, root } = temp
  const run = makeRun()
  await store.writeRun(run)
  const review = labelOf(run, 'wrong capital')
  const stored = await store.appendReview(review)
  const dir = join(root, 'acme', 'runs', 'capitals', '.reviews', keyOf(run))
  expect(stored.location).toBe(join(dir, `${review.review_id}.json`))
  expect(readdirSync(dir)).toEqual([`${review.review_id}.json`])
  execFileSync('git', ['init', '-q'], { cwd: dirname(root) })
  expect(
    execFileSync('git', ['check-ignore', stored.location], { cwd: dirname(root) })
      .toString()
      .trim(),
  ).toBe(stored.location)
  await store.deleteRun('acme', 'capitals', keyOf(run))
  expect(existsSync(dir)).toBe(false)
})

test('labels a delete stopped before removing them are not listed, and its repeat removes them', async () => {
  temp = makeTempStore()
  const { store } = temp
  const run = makeRun()
  await store.writeRun(run)
  const review = labelOf(run, 'left behind')
  const stored = await store.appendReview(review)
  await store.deleteRun('acme', 'capitals', keyOf(run))
  // Put back what a delete stopped between its removal and the labels' would have left.
  mkdirSync(dirname(stored.location), { recursive: true })
  writeFileSync(stored.location, `${JSON.stringify(review, null, 2)}\n`)
  expect(await store.listReviews('acme', 'capitals')).toEqual([])
  expect(await store.listReviews('acme', 'capitals', keyOf(run))).toEqual([])
  await store.deleteRun('acme', 'capitals', keyOf(run))
  expect(existsSync(stored.location)).toBe(false)
})
