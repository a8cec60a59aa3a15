import { describe, expect, it } from 'vitest'
import { aggregate } from '../../../src/driver/aggregate.js'
import { judgeThresholds } from '../../../src/driver/thresholds.js'
import { wilson, Z95 } from '../../../src/stats/wilson.js'
import { aggregatesSchema, type Aggregates, type CaseResult, type Rules } from '../../../src/document/schema.js'
import { AGGREGATE_DEFINITIONS } from '../../../src/suite/hashing.js'

function result(case_id: string, verdict: CaseResult['verdict'], score: number | null, usage?: [number, number][]): CaseResult {
  const samples = (usage ?? [[0, 0]]).map(([i, o]) => ({
    pass: verdict === 'pass',
    score: score ?? 0,
    scorers: [],
    ...(usage === undefined ? {} : { usage: { input_tokens: i, output_tokens: o } }),
  }))
  return {
    case_id,
    verdict,
    score,
    passed_samples: verdict === 'pass' ? samples.length : 0,
    reason: null,
    error: verdict === 'error' ? { cause: 'target', message: 'down' } : null,
    samples: verdict === 'error' ? [] : samples,
  }
}

const rules = (thresholds: Rules['thresholds'] = {}): Rules => ({ samples: 2, min_agreement: 1, thresholds, tolerances: {} })

describe('wilson', () => {
  it('uses the z that AGGREGATE_DEFINITIONS names', () => {
    expect(AGGREGATE_DEFINITIONS.pass_rate_ci95).toBe(`wilson, z = ${Z95}`)
  })

  it.each([
    [8, 10, 0.4902, 0.9433],
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
    [1, 1, 0.2065, 1],
    [50, 100, 0.4038, 0.5962],
    [1, 3, 0.0615, 0.7923],
  ])('%d of %d → [%d, %d]', (k, n, low, high) => {
    const interval = wilson(k, n)!
    expect(interval.low).toBeCloseTo(low, 4)
    expect(interval.high).toBeCloseTo(high, 4)
    expect(interval.low).toBeGreaterThanOrEqual(0)
    expect(interval.high).toBeLessThanOrEqual(1)
  })

  it('has no interval without trials', () => {
    expect(wilson(0, 0)).toBeUndefined()
  })
})

describe('aggregate', () => {
  it('counts verdicts, rates over judged cases only, means over judged cases, sums usage', () => {
    const results = [
      result('a', 'pass', 1, [
        [10, 2],
        [12, 3],
      ]),
      result('b', 'pass', 0.75, [
        [10, 2],
        [10, 2],
      ]),
      result('c', 'fail', 0.2, [
        [5, 1],
        [5, 1],
      ]),
      result('d', 'error', null),
    ]
    const aggregates = aggregate(results, rules())
    expect(aggregates).toEqual({
      cases: 4,
      passed: 2,
      failed: 1,
      errored: 1,
      pass_rate: 2 / 3,
      pass_rate_ci95: wilson(2, 3),
      mean_score: (1 + 0.75 + 0.2) / 3,
      samples_per_case: 2,
      usage: { input_tokens: 52, output_tokens: 11 },
    })
    expect(aggregatesSchema.safeParse(aggregates).success).toBe(true)
  })

  it('has no usage key when no sample carries usage', () => {
    const aggregates = aggregate([result('a', 'pass', 1), result('b', 'fail', 0)], rules())
    expect('usage' in aggregates).toBe(false)
    expect(aggregates.pass_rate).toBe(0.5)
  })

  it('a run with no judged case has null rate, interval and mean', () => {
    const aggregates = aggregate([result('a', 'error', null), result('b', 'error', null)], rules())
    expect(aggregates).toMatchObject({ cases: 2, passed: 0, failed: 0, errored: 2, pass_rate: null, pass_rate_ci95: null, mean_score: null })
    expect(aggregatesSchema.safeParse(aggregates).success).toBe(true)
  })

  it('an empty result list is zero cases and nulls', () => {
    expect(aggregate([], rules())).toMatchObject({ cases: 0, pass_rate: null, mean_score: null })
  })
})

describe('judgeThresholds', () => {
  const agg = (pass_rate: number | null, mean_score: number | null): Aggregates => ({
    cases: 10,
    passed: 0,
    failed: 0,
    errored: 0,
    pass_rate,
    pass_rate_ci95: null,
    mean_score,
    samples_per_case: 1,
  })

  it('is met without thresholds, and when every bar is reached exactly', () => {
    expect(judgeThresholds(agg(0.1, 0.1), rules())).toEqual({ met: true, misses: [] })
    expect(judgeThresholds(agg(0.8, 0.5), rules({ pass_rate: 0.8, mean_score: 0.5 }))).toEqual({ met: true, misses: [] })
  })

  it('treats float noise under a bar as reaching it', () => {
    expect(judgeThresholds(agg(0.8, 0.7999999999999999), rules({ mean_score: 0.8 })).met).toBe(true)
  })

  it('names every bar missed, with what was required and what the run reached', () => {
    expect(judgeThresholds(agg(0.7, 0.4), rules({ pass_rate: 0.8, mean_score: 0.5 }))).toEqual({
      met: false,
      misses: [
        { field: 'pass_rate', required: 0.8, actual: 0.7 },
        { field: 'mean_score', required: 0.5, actual: 0.4 },
      ],
    })
  })

  it('a null actual (nothing judged) misses its bar', () => {
    expect(judgeThresholds(agg(null, null), rules({ pass_rate: 0 }))).toEqual({
      met: false,
      misses: [{ field: 'pass_rate', required: 0, actual: null }],
    })
  })
})
