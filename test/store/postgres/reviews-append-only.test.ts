// The team store's database holds review records append-only by itself (docs/adr/0341): a client
// that bypasses digline can neither change nor remove a label, and a run's delete still removes its
// labels (the foreign key's cascade), in the delete's own transaction.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { answerDigestOf } from '../../../src/document/answer-digest.js'
import { APPEND_ONLY_SQLSTATE } from '../../../src/store/postgres/schema.js'
import { PostgresStore } from '../../../src/store/postgres/store.js'
import { newReview } from '../../../src/store/review.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js'

let db: TestDatabase
let store: PostgresStore
beforeAll(async () => {
  db = await createTestDatabase('reviews_append_only')
  store = new PostgresStore({ url: db.url })
  await store.ready()
})
afterAll(async () => {
  await store?.end()
  await db?.drop()
})

async function codeOf(statement: Promise<unknown>): Promise<string | undefined> {
  return statement.then(
    () => undefined,
    (error: unknown) => (error as { code?: string }).code,
  )
}

test('an UPDATE or DELETE of a review row is refused by the database; the run delete removes the rows', async () => {
  const run = makeRun()
  await store.writeRun(run)
  const review = newReview({
    reviewer: 'ana@example.com',
    tenant: 'acme',
    suite: 'capitals',
    run: keyOf(run),
    case_id: run.results[0]!.case_id,
    answer_digest: answerDigestOf(run.results[0]!),
    judges: { exact: 'agree' },
    verdict: 'pass',
    note: null,
    created_at: '2026-12-02T10:00:00.000001Z',
  })
  await store.appendReview(review)
  expect(await codeOf(db.sql(`UPDATE digline_reviews SET record = '{}'`))).toBe(APPEND_ONLY_SQLSTATE)
  expect(await codeOf(db.sql(`DELETE FROM digline_reviews`))).toBe(APPEND_ONLY_SQLSTATE)
  expect(await store.listReviews('acme', 'capitals')).toEqual([review])
  await store.deleteRun('acme', 'capitals', keyOf(run))
  expect((await db.sql('SELECT count(*)::int AS n FROM digline_reviews')).rows[0]).toEqual({ n: 0 })
})
