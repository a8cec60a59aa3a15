// A person's label of a case, made into a review record and appended (SPEC §17, docs/adr/0341). The
// store checks the record; here it is checked against the run it names: the case is one of the
// run's judged cases, and every judge named is one of the run's scorers.
import { answerDigestOf } from '../../document/answer-digest.js'
import type { Store, StoredReview } from '../../store/contract.js'
import { compareReviews, newReview, type ReviewRecord } from '../../store/review.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { createdAtNow } from '../../suite/keys.js'
import { ReviewCaseNotFoundError, UnknownReviewJudgeError } from '../errors.js'

/** What a person says of one case; the reviewer and the time are the session's, never the request's. */
export interface CaseLabel {
  suite: string
  run: string
  case_id: string
  judges: Record<string, 'agree' | 'disagree'>
  verdict: 'pass' | 'fail'
  note: string | null
}

export interface LabelContext {
  tenant: string
  reviewer: string
  now?: () => string
}

export async function labelCase(store: Store, context: LabelContext, label: CaseLabel): Promise<{ review: ReviewRecord; stored: StoredReview }> {
  assertSafeSegment('suite', label.suite)
  assertSafeSegment('key', label.run)
  assertSafeSegment('case', label.case_id)
  const doc = await store.readRun(context.tenant, label.suite, label.run)
  const result = doc.results.find((r) => r.case_id === label.case_id)
  if (result === undefined || result.verdict === 'error') {
    throw new ReviewCaseNotFoundError(
      `refused to label case ${label.case_id} of run ${label.run} of suite ${label.suite}: ${result === undefined ? 'the run holds no such case' : 'the case errored, so no judge gave it a verdict'}; nothing was written`,
      `label a case the run judged: \`digline show --suite ${label.suite} --run ${label.run}\` lists them`,
      ['case_id'],
    )
  }
  const scorers = new Set(doc.judge_config.scorers.map((s) => s.name))
  const judges = label.judges !== null && typeof label.judges === 'object' ? label.judges : {}
  const unknown = Object.keys(judges).filter((name) => !scorers.has(name))
  if (unknown.length > 0) {
    throw new UnknownReviewJudgeError(
      `refused the label of case ${label.case_id} of run ${label.run}: ${unknown.map((n) => JSON.stringify(n)).join(', ')} ${unknown.length === 1 ? 'is not a scorer' : 'are not scorers'} of the run (its scorers: ${[...scorers].join(', ')}); nothing was written`,
      `give an opinion only of the run's scorers (${[...scorers].join(', ')}) and label the case again`,
      ['judges', unknown[0]!],
    )
  }
  const review = newReview({
    reviewer: context.reviewer,
    tenant: context.tenant,
    suite: label.suite,
    run: label.run,
    case_id: label.case_id,
    answer_digest: answerDigestOf(result),
    judges: label.judges,
    verdict: label.verdict,
    note: typeof label.note === 'string' && label.note.trim() === '' ? null : label.note,
    created_at: (context.now ?? createdAtNow)(),
  })
  const stored = await store.appendReview(review)
  return { review, stored }
}

/** Each reviewer's newest label of each case of each run: what a person says now (ADR 0341). */
export function currentLabels(reviews: readonly ReviewRecord[]): ReviewRecord[] {
  const newest = new Map<string, ReviewRecord>()
  // reviews come oldest first (the store's order), so a later one replaces an earlier one
  for (const r of reviews) newest.set(JSON.stringify([r.reviewer, r.suite, r.run, r.case_id]), r)
  return [...newest.values()].sort(compareReviews)
}
