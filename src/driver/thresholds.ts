import type { Aggregates, Rules } from '../document/schema.js'

export interface ThresholdMiss {
  field: 'pass_rate' | 'mean_score'
  required: number
  /** null when the run judged no case, which misses every threshold. */
  actual: number | null
}

export interface ThresholdJudgement {
  met: boolean
  misses: ThresholdMiss[]
}

// A mean of floats can land a hair under the value it equals (0.7999999999999999 for 0.8).
const FLOAT_SLACK = 1e-9

/** The absolute bars of the suite's thresholds, held against a run's aggregates. */
export function judgeThresholds(aggregates: Aggregates, rules: Rules): ThresholdJudgement {
  const misses: ThresholdMiss[] = []
  for (const field of ['pass_rate', 'mean_score'] as const) {
    const required = rules.thresholds[field]
    if (required === undefined) continue
    const actual = aggregates[field]
    if (actual === null || actual + FLOAT_SLACK < required) misses.push({ field, required, actual })
  }
  return { met: misses.length === 0, misses }
}
