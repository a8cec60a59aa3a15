// The run's aggregates, exactly as AGGREGATE_DEFINITIONS (src/suite/hashing.ts) defines them.
import type { Aggregates, CaseResult, Rules } from '../document/schema.js'
import type { TokenUsage } from '../suite/types.js'
import { costOf, type Pricing } from './cost.js'
import { wilson } from '../stats/wilson.js'

/** With `pricing` (the suite declares prices), the aggregates carry the run's cost. */
export function aggregate(results: readonly CaseResult[], rules: Rules, pricing?: Pricing): Aggregates {
  let passed = 0
  let failed = 0
  let errored = 0
  let scoreSum = 0
  let taken = 0
  let usage: TokenUsage | undefined
  let judgeUsage: TokenUsage | undefined
  for (const result of results) {
    if (result.verdict === 'error') {
      errored++
    } else {
      if (result.verdict === 'pass') passed++
      else failed++
      scoreSum += result.score ?? 0
      taken += result.samples.length
    }
    for (const sample of result.samples) {
      if (sample.usage !== undefined) usage = add(usage, sample.usage)
      for (const score of sample.scorers) if (score.usage !== undefined) judgeUsage = add(judgeUsage, score.usage)
    }
  }
  const judged = passed + failed
  const out: Aggregates = {
    cases: results.length,
    passed,
    failed,
    errored,
    pass_rate: judged === 0 ? null : passed / judged,
    pass_rate_ci95: wilson(passed, judged) ?? null,
    mean_score: judged === 0 ? null : Math.min(1, Math.max(0, scoreSum / judged)),
    samples_per_case: rules.samples,
  }
  if (rules.min_samples !== undefined) out.samples_taken = taken
  if (usage !== undefined) out.usage = usage
  if (judgeUsage !== undefined) out.judge_usage = judgeUsage
  if (pricing !== undefined) out.cost = costOf(results, pricing)
  return out
}

function add(sum: TokenUsage | undefined, usage: TokenUsage): TokenUsage {
  return { input_tokens: (sum?.input_tokens ?? 0) + usage.input_tokens, output_tokens: (sum?.output_tokens ?? 0) + usage.output_tokens }
}
