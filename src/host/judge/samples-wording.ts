// How many samples each case took, in words: `3 sample(s) each`, or with adaptive samples (ADR 0360)
// the bounds and what the cases took on average (ADR 0417).
import type { Aggregates, RunDocument } from '../../document/schema.js'

export function describeSamplesPerCase(a: Aggregates, rules: RunDocument['rules']): string {
  if (rules.min_samples === undefined || a.samples_taken === undefined) return `${a.samples_per_case} sample(s) each`
  // an errored case took no sample the document keeps
  const judged = a.passed + a.failed
  const average = judged === 0 ? 'none taken' : `${(a.samples_taken / judged).toFixed(1)} taken on average`
  return `${rules.min_samples}–${a.samples_per_case} samples each (adaptive), ${average} (${a.samples_taken} in all)`
}
