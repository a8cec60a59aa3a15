// The report's "samples each" in words: fixed samples as a count, adaptive samples (ADR 0360) as their
// bounds and what the cases took on average, never the max as if every case had taken it (ADR 0417).
import { expect, test } from 'vitest'
import { describeSamplesPerCase } from '../../../src/host/judge/samples-wording.js'
import type { Aggregates, RunDocument } from '../../../src/document/schema.js'

const rules = (min?: number) =>
  ({ samples: 6, min_agreement: 2 / 3, thresholds: {}, tolerances: {}, ...(min === undefined ? {} : { min_samples: min }) }) as unknown as RunDocument['rules']
const aggregates = (taken?: number) =>
  ({
    cases: 5,
    passed: 3,
    failed: 1,
    errored: 1,
    pass_rate: 0.75,
    pass_rate_ci95: null,
    mean_score: 0.8,
    samples_per_case: 6,
    ...(taken === undefined ? {} : { samples_taken: taken }),
  }) as unknown as Aggregates

test('fixed samples: the count each case took', () => {
  expect(describeSamplesPerCase(aggregates(), rules())).toBe('6 sample(s) each')
})

test('adaptive samples: min–max, and the average over the judged cases (an errored case took none the document keeps)', () => {
  expect(describeSamplesPerCase(aggregates(13), rules(2))).toBe('2–6 samples each (adaptive), 3.3 taken on average (13 in all)')
  expect(describeSamplesPerCase({ ...aggregates(0), passed: 0, failed: 0, errored: 5 }, rules(2))).toBe('2–6 samples each (adaptive), none taken (0 in all)')
})
