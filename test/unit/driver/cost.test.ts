// A run's cost from its usage and the suite's price table, and the announcement's estimate.
import { expect, test } from 'vitest'
import { costOf, pricingFor } from '../../../src/driver/cost.js'
import { describeEstimate } from '../../../src/host/launch/usage-estimate.js'
import type { CaseResult } from '../../../src/document/schema.js'

const sample = (target: [number, number] | undefined, judge?: [number, number]) => ({
  pass: true,
  score: 1,
  scorers: [{ name: 'llm_judge', pass: true, score: 1, reason: null, ...(judge ? { usage: { input_tokens: judge[0], output_tokens: judge[1] } } : {}) }],
  ...(target ? { usage: { input_tokens: target[0], output_tokens: target[1] } } : {}),
})
const result = (samples: ReturnType<typeof sample>[]): CaseResult => ({
  case_id: 'c',
  verdict: 'pass',
  score: 1,
  passed_samples: samples.length,
  reason: null,
  error: null,
  samples,
})
const judgeConfig = { scorers: [{ name: 'llm_judge', config: { model: { provider: 'openai-compatible', model: 'judge-mini' } }, pass_at: 0.75 }] }

test('target tokens are priced by the observed model, judge tokens by the judge observed or declared', () => {
  const prices = { 'gpt-x-2026': { input: 2, output: 8 }, 'judge-mini': { input: 0.5, output: 1 } }
  const pricing = pricingFor(prices, { target_model: 'gpt-x-2026', judge_models: {} }, { model: 'gpt-x' }, judgeConfig)
  const cost = costOf([result([sample([1000, 100], [2000, 50]), sample([1000, 100], [2000, 50])])], pricing)
  // target: 2000 × 2 + 200 × 8 = 5600 per million; judge: 4000 × 0.5 + 100 × 1 = 2100 per million
  expect(cost).toEqual({ target: 0.0056, judge: 0.0021, total: 0.0077, unpriced: [] })
})

test('a model with no price is named in unpriced, and its share is left out', () => {
  const pricing = pricingFor({ 'gpt-x': { input: 1, output: 1 } }, { target_model: 'gpt-x-2026', judge_models: { llm_judge: 'judge-big-2026' } }, { model: 'gpt-x' }, judgeConfig)
  expect(costOf([result([sample([500_000, 500_000], [10, 10])])], pricing)).toEqual({ target: 1, judge: 0, total: 1, unpriced: ['judge-big-2026'] })
})

test('the estimate scales the per-call tokens and cost of an earlier run to this launch', () => {
  const text = describeEstimate(40, { key: 'K', target: { input: 120.5, output: 8 }, judge: { input: 300, output: 20 }, costPerCall: 0.00031 })
  expect(text).toBe('estimated from run K: ~4,820 input + 320 output tokens to the target, ~12,000 + 800 to the judges, cost ~0.012')
})
