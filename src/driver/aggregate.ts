// The run's aggregates, exactly as AGGREGATE_DEFINITIONS (src/suite/hashing.ts) defines them.
import type { Aggregates, CaseResult, Rules } from '../document/schema.js'
import { wilson } from './wilson.js'

export function aggregate(results: readonly CaseResult[], rules: Rules): Aggregates {
  let passed = 0
  let failed = 0
  let errored = 0
  let scoreSum = 0
  let usage: { input_tokens: number; output_tokens: number } | undefined
  for (const result of results) {
    if (result.verdict === 'error') {
      errored++
    } else {
      if (result.verdict === 'pass') passed++
      else failed++
      scoreSum += result.score ?? 0
    }
    for (const sample of result.samples) {
      if (sample.usage === undefined) continue
      usage ??= { input_tokens: 0, output_tokens: 0 }
      usage.input_tokens += sample.usage.input_tokens
      usage.output_tokens += sample.usage.output_tokens
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
  if (usage !== undefined) out.usage = usage
  return out
}
