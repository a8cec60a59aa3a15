// Review records on PostgreSQL (docs/adr/0341): one row per record in digline_reviews, whose
// foreign key to its run makes a label need a filed run and go with the run's delete; the
// database refuses any other change (schema.ts, migration 4). The row keeps the record's bytes.
import { RunNotFoundError, UnreadableReviewError } from '../errors.js'
import { isDiglineError } from '../../errors/base.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { checkReview, compareReviews, type ReviewRecord } from '../review.js'
import type { RunRef } from '../removal.js'
import type { StoredReview } from '../contract.js'
import { sqlstateOf, type PgConnection } from './connection.js'

export interface PgReviewsHooks {
  /** The RunRemovedError for a removed run when the database refused the write, else the error as it was. */
  removedOr(ref: RunRef, doing: string, error: unknown): Promise<unknown>
  where: string
}

export class PgReviews {
  constructor(
    private readonly db: PgConnection,
    private readonly hooks: PgReviewsHooks,
  ) {}

  async appendReview(value: ReviewRecord): Promise<StoredReview> {
    const review = checkReview(value)
    const ref = { tenant: review.tenant, suite: review.suite, key: review.run }
    const location = `review ${review.review_id} of run ${ref.key} of suite ${ref.suite} (tenant ${ref.tenant}) in the team store ${this.hooks.where}`
    try {
      const { rowCount } = await this.db.query(
        'appending a review record',
        `INSERT INTO digline_reviews (tenant, suite, key, review_id, case_id, created_at, record) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [ref.tenant, ref.suite, ref.key, review.review_id, review.case_id, review.created_at, `${JSON.stringify(review, null, 2)}\n`],
      )
      return { review_id: review.review_id, appended: (rowCount ?? 0) > 0, location }
    } catch (error) {
      const named = await this.hooks.removedOr(ref, 'label a case of', error)
      if (named === error && sqlstateOf(error) === '23503') {
        throw new RunNotFoundError(
          `refused to label a case of run ${ref.key} of suite ${ref.suite} (tenant ${ref.tenant}): no run document is filed under that key (a run still in progress is labelled once it is filed); nothing was written`,
          `digline list --suite ${ref.suite}`,
          ['run'],
        )
      }
      throw named
    }
  }

  async listReviews(tenant: string, suite: string, key?: string): Promise<ReviewRecord[]> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    if (key !== undefined) assertSafeSegment('key', key)
    const { rows } =
      key === undefined
        ? await this.db.query('listing review records', 'SELECT key, review_id, record FROM digline_reviews WHERE tenant = $1 AND suite = $2', [tenant, suite])
        : await this.db.query('listing review records', 'SELECT key, review_id, record FROM digline_reviews WHERE tenant = $1 AND suite = $2 AND key = $3', [tenant, suite, key])
    return rows.map((row) => this.read(row, tenant, suite)).sort(compareReviews)
  }

  private read(row: Record<string, unknown>, tenant: string, suite: string): ReviewRecord {
    const run = String(row.key)
    const id = String(row.review_id)
    const where = `review ${id} of run ${run} of suite ${suite} (tenant ${tenant}) in the team store ${this.hooks.where}`
    let review: ReviewRecord
    try {
      review = checkReview(JSON.parse(String(row.record)) as unknown, where)
    } catch (error) {
      throw unreadable(where, suite, isDiglineError(error) ? error.message.split('\n')[0]! : error instanceof Error ? error.message : String(error))
    }
    if (review.tenant !== tenant || review.suite !== suite || review.run !== run || review.review_id !== id) {
      throw unreadable(
        where,
        suite,
        `its row is of run ${run} as ${id} but holds review ${review.review_id} of run ${review.run} of suite ${review.suite} (tenant ${review.tenant})`,
      )
    }
    return review
  }
}

function unreadable(where: string, suite: string, why: string): UnreadableReviewError {
  return new UnreadableReviewError(
    `refused ${where}: ${why}`,
    `restore the row from a backup (the database refuses to change a review record, so this one was written outside digline), then list the labels again with \`digline list --suite ${suite}\``,
    ['review'],
  )
}
