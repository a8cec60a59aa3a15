// The review-record part (SPEC §17): people's labels of cases, append-only on every backend, kept
// only for filed runs, and gone with their run's delete (docs/adr/0341). Speaks only through the Store contract.
import { describe, expect, it } from 'vitest'
import { answerDigestOf } from '../../../src/document/answer-digest.js'
import type { RunDocument } from '../../../src/document/schema.js'
import { InvalidReviewError, RunNotFoundError, RunRemovedError } from '../../../src/store/errors.js'
import { newReview, reviewIdOf, type ReviewFields, type ReviewRecord } from '../../../src/store/review.js'
import { PathRefusedError } from '../../../src/suite/errors.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { journalHeader } from '../journal-fixtures.js'
import { HOSTILE_NAMES, refusedWithoutChange, type ContractSubject } from './harness.js'

const [T1, T2, T3] = createdAtSeconds(3, '2026-12-02T10:00')

function label(run: RunDocument, caseIndex: number, over: Partial<ReviewFields> = {}): ReviewRecord {
  const result = run.results[caseIndex]!
  return newReview({
    reviewer: 'ana@example.com',
    tenant: run.tenant,
    suite: run.suite,
    run: keyOf(run),
    case_id: result.case_id,
    answer_digest: answerDigestOf(result),
    judges: { exact: 'disagree' },
    verdict: result.verdict === 'pass' ? 'fail' : 'pass',
    note: 'the capital moved',
    created_at: T1!,
    ...over,
  })
}

export function reviewsPart(current: () => ContractSubject): void {
  describe('review records', () => {
    it('gives back each record as appended, oldest first, under its suite and run only; the same record again adds nothing', async () => {
      const { store } = current()
      const run = makeRun()
      const other = makeRun({ createdAt: '2026-11-29T22:40:00.000001Z' })
      await store.writeRun(run)
      await store.writeRun(other)
      const later = label(run, 0, { created_at: T3!, reviewer: 'bo@example.com', judges: { exact: 'agree' }, verdict: 'pass', note: null })
      const first = label(run, 0)
      const elsewhere = label(other, 1, { created_at: T2! })
      expect(await store.appendReview(later)).toMatchObject({ review_id: later.review_id, appended: true })
      expect((await store.appendReview(first)).appended).toBe(true)
      expect((await store.appendReview(elsewhere)).appended).toBe(true)
      expect(await store.appendReview(first)).toMatchObject({ review_id: first.review_id, appended: false })
      expect(await store.listReviews('acme', 'capitals', keyOf(run))).toEqual([first, later])
      expect(await store.listReviews('acme', 'capitals')).toEqual([first, elsewhere, later])
      expect(await store.listReviews('acme', 'rivers')).toEqual([])
      expect(await store.listReviews('globex', 'capitals')).toEqual([])
      // A second opinion of the same case by the same person is a second record: nothing is updated.
      const changed = label(run, 0, { note: 'on second thought', created_at: T2! })
      await store.appendReview(changed)
      expect(await store.listReviews('acme', 'capitals', keyOf(run))).toEqual([first, changed, later])
      expect(first.judges).toEqual({ exact: 'disagree' })
    })

    it('keeps the judges in name order and a record whose id is the digest of its fields', async () => {
      const { store } = current()
      const run = makeRun()
      await store.writeRun(run)
      const review = label(run, 2, { judges: { zeta: 'agree', exact: 'disagree', alpha: 'agree' } })
      await store.appendReview(review)
      const [back] = await store.listReviews('acme', 'capitals')
      expect(Object.keys(back!.judges)).toEqual(['alpha', 'exact', 'zeta'])
      expect(back!.review_id).toBe(reviewIdOf(back!))
      expect(Object.keys(back!)).toEqual([
        'review_version',
        'review_id',
        'reviewer',
        'tenant',
        'suite',
        'run',
        'case_id',
        'answer_digest',
        'judges',
        'verdict',
        'note',
        'created_at',
      ])
    })

    it('refuses a label of a run that is not filed, or is only journaled, and changes nothing', async () => {
      const subject = current()
      const run = makeRun()
      const review = label(run, 0)
      await refusedWithoutChange(subject, () => subject.store.appendReview(review), RunNotFoundError)
      await (await subject.store.openJournal(journalHeader(), 1)).close()
      await refusedWithoutChange(subject, () => subject.store.appendReview(review), RunNotFoundError)
      await subject.store.writeRun(makeRun({ suite: 'rivers' }))
      await refusedWithoutChange(subject, () => subject.store.appendReview(review), RunNotFoundError)
    })

    it('refuses a record that is not one, naming the field, and changes nothing', async () => {
      const subject = current()
      const run = makeRun()
      await subject.store.writeRun(run)
      const good = label(run, 0)
      const bad: [string, unknown][] = [
        ['verdict', { ...good, verdict: 'maybe' }],
        ['judges.exact', { ...good, judges: { exact: 'partly' } }],
        ['reviewer', { ...good, reviewer: '' }],
        ['reviewer', { ...good, reviewer: 'a\nb' }],
        ['note', { ...good, note: 'n'.repeat(4001) }],
        ['answer_digest', { ...good, answer_digest: 'abc' }],
        ['created_at', { ...good, created_at: '2026-12-02' }],
        ['the record', { ...good, extra: 1 }],
        ['review_id', { ...good, note: 'edited after it was made' }],
        ['review_id', { ...good, review_id: 'f'.repeat(64) }],
      ]
      for (const [field, record] of bad) {
        const refusal = await refusedWithoutChange(subject, () => subject.store.appendReview(record as ReviewRecord), InvalidReviewError)
        expect(refusal.message).toContain(field)
      }
      expect(await subject.store.listReviews('acme', 'capitals')).toEqual([])
    })

    it('refuses hostile names before any I/O', async () => {
      const subject = current()
      const run = makeRun()
      await subject.store.writeRun(run)
      const good = label(run, 0)
      for (const name of HOSTILE_NAMES) {
        for (const field of ['tenant', 'suite', 'run', 'case_id'] as const) {
          await refusedWithoutChange(subject, () => subject.store.appendReview({ ...good, [field]: name }), PathRefusedError)
        }
        await refusedWithoutChange(subject, () => subject.store.listReviews(name, 'capitals'), PathRefusedError)
        await refusedWithoutChange(subject, () => subject.store.listReviews('acme', name), PathRefusedError)
        await refusedWithoutChange(subject, () => subject.store.listReviews('acme', 'capitals', name), PathRefusedError)
      }
    })

    it("loses a run's labels with the run's delete, keeps every other run's, and refuses a label of the removed run", async () => {
      const subject = current()
      const { store } = subject
      const run = makeRun()
      const kept = makeRun({ createdAt: '2026-11-29T22:40:00.000001Z' })
      await store.writeRun(run)
      await store.writeRun(kept)
      await store.appendReview(label(run, 0))
      await store.appendReview(label(run, 1, { created_at: T2! }))
      const other = label(kept, 0)
      await store.appendReview(other)
      await store.deleteRun('acme', 'capitals', keyOf(run))
      expect(await store.listReviews('acme', 'capitals', keyOf(run))).toEqual([])
      expect(await store.listReviews('acme', 'capitals')).toEqual([other])
      const refusal = await refusedWithoutChange(subject, () => store.appendReview(label(run, 2, { created_at: T3! })), RunRemovedError)
      expect(refusal.message).toContain(keyOf(run))
      // The key written again is refused too, so no label can come back with it.
      await refusedWithoutChange(subject, () => store.writeRun(run), RunRemovedError)
      expect((await store.deleteRun('acme', 'capitals', keyOf(run))).alreadyRemovedAt).toBeDefined()
      expect(await store.listReviews('acme', 'capitals')).toEqual([other])
    })
  })
}
