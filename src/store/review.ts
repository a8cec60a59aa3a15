// A review record: one person's label of one case of one filed run (SPEC §17, docs/adr/0341). It is
// appended and never changed: a second opinion is a second record. Its id is the digest of every
// other field, so the same record appended twice is one record, on either backend.
import type { z } from 'zod'
import type * as Zod from 'zod'
import { lazySchema } from '../suite/zod-on-demand.js'
import { canonicalJson, sha256Hex } from '../suite/hashing.js'
import { isCreatedAt } from '../suite/keys.js'
import { assertSafeSegment } from '../suite/assert-safe-segment.js'
import { InvalidReviewError } from './errors.js'

export const REVIEW_RECORD_VERSION = 1

/** Bounds a record is held to, so a label stays a label (and a POST stays small). */
export const REVIEW_LIMITS = { reviewer: 200, note: 4000, judges: 64, judgeName: 200 } as const

const hex64 = lazySchema((z) => z.string().regex(/^[0-9a-f]{64}$/, 'is not 64 lowercase hex'))
const plainText = (z: typeof Zod.z, max: number) =>
  z
    .string()
    .min(1, 'is empty')
    .max(max, `is longer than ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'holds a control character')

export const reviewJudgeOpinions = ['agree', 'disagree'] as const
export const reviewVerdicts = ['pass', 'fail'] as const

export const reviewRecordSchema = lazySchema((z) =>
  z
    .object({
      review_version: z.literal(REVIEW_RECORD_VERSION),
      /** sha256 of the canonical JSON of every other field. */
      review_id: hex64,
      reviewer: plainText(z, REVIEW_LIMITS.reviewer),
      tenant: z.string(),
      suite: z.string(),
      /** The key of the run the case was labelled in. */
      run: z.string(),
      case_id: z.string(),
      /** answerDigestOf(the case's result as filed): which answers the person looked at. */
      answer_digest: hex64,
      /** Per scorer of the run, by name: whether the person agrees with its verdict. Scorers left out were not judged. */
      judges: z
        .record(z.string(), z.enum(reviewJudgeOpinions))
        .refine((j) => Object.keys(j).length <= REVIEW_LIMITS.judges, `names more than ${REVIEW_LIMITS.judges} scorers`)
        .refine((j) => Object.keys(j).every((name) => name.length > 0 && name.length <= REVIEW_LIMITS.judgeName), 'names a scorer with an empty or overlong name'),
      /** The verdict the person says is right. */
      verdict: z.enum(reviewVerdicts),
      note: z.string().max(REVIEW_LIMITS.note, `is longer than ${REVIEW_LIMITS.note} characters`).nullable(),
      created_at: z.string().refine(isCreatedAt, 'is not ISO-8601 UTC with microseconds'),
    })
    .strict(),
)

export type ReviewRecord = z.infer<typeof reviewRecordSchema>
export type ReviewFields = Omit<ReviewRecord, 'review_version' | 'review_id'>

/** The record in its written order, judges by name. */
function ordered(fields: ReviewFields): ReviewFields {
  const judges = Object.fromEntries(
    Object.keys(fields.judges)
      .sort()
      .map((name) => [name, fields.judges[name]!]),
  )
  return {
    reviewer: fields.reviewer,
    tenant: fields.tenant,
    suite: fields.suite,
    run: fields.run,
    case_id: fields.case_id,
    answer_digest: fields.answer_digest,
    judges,
    verdict: fields.verdict,
    note: fields.note,
    created_at: fields.created_at,
  }
}

export function reviewIdOf(fields: ReviewFields): string {
  return sha256Hex(canonicalJson({ review_version: REVIEW_RECORD_VERSION, ...ordered(fields) }))
}

/** A new record: the fields checked, put in order, and given their id. */
export function newReview(fields: ReviewFields): ReviewRecord {
  const body = ordered(fields)
  return checkReview({ review_version: REVIEW_RECORD_VERSION, review_id: reviewIdOf(body), ...body })
}

/**
 * The record as a store files it, or the refusal: names that are not safe segments first
 * (PathRefusedError, before any I/O), then a field that is not what the record holds, or an id that
 * is not the digest of the rest (InvalidReviewError, naming the field).
 */
export function checkReview(value: unknown, where = 'a review record'): ReviewRecord {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  assertSafeSegment('tenant', v.tenant)
  assertSafeSegment('suite', v.suite)
  assertSafeSegment('key', v.run)
  assertSafeSegment('case', v.case_id)
  const parsed = reviewRecordSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.length === 0 ? 'the record' : issue.path.join('.')
    throw invalidReview(
      v.suite,
      `${where}: ${field} ${issue.message}`,
      issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    )
  }
  const { review_version: _version, review_id, ...fields } = parsed.data
  const body = ordered(fields)
  if (reviewIdOf(body) !== review_id) throw invalidReview(v.suite, `${where}: review_id is not the digest of its fields (the record was changed after it was made)`, ['review_id'])
  return { review_version: REVIEW_RECORD_VERSION, review_id, ...body }
}

function invalidReview(suite: string, what: string, path: readonly (string | number)[]): InvalidReviewError {
  return new InvalidReviewError(
    `refused ${what}; nothing was written`,
    `label the case again with the field fixed (\`digline list --suite ${suite}\` lists the runs there are)`,
    path,
  )
}

/** Oldest first, then by id: the order both backends list reviews in. */
export function compareReviews(a: ReviewRecord, b: ReviewRecord): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1
  return a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
}
