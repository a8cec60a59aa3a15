// The cases of a run whose verdict rests on a score at the edge of its threshold: a sample with a
// scorer score marked borderline (within the suite's band of pass_at, ADR 0262).
import type { CaseResult } from './schema.js'

export interface BorderlineCount {
  /** Samples with at least one borderline scorer score. */
  samples: number
  /** The cases with such a sample, in run order, and how many of them passed and failed. */
  cases: string[]
  passed: number
  failed: number
}

export function hasBorderline(result: CaseResult): boolean {
  return result.samples.some((s) => s.scorers.some((x) => x.borderline === true))
}

/** The run's borderline cases, or undefined when it has none. */
export function borderlineOf(results: readonly CaseResult[]): BorderlineCount | undefined {
  const count: BorderlineCount = { samples: 0, cases: [], passed: 0, failed: 0 }
  for (const result of results) {
    const samples = result.samples.filter((s) => s.scorers.some((x) => x.borderline === true)).length
    if (samples === 0) continue
    count.samples += samples
    count.cases.push(result.case_id)
    if (result.verdict === 'pass') count.passed++
    else if (result.verdict === 'fail') count.failed++
  }
  return count.cases.length === 0 ? undefined : count
}
