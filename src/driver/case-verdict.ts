// How a sample's scores become its pass and score, and a case's samples its verdict: the one code the
// driver writes documents with and `digline import` checks them with (a document digline could not
// have written is refused, ADR 0163).
import type { CaseResult, Rules, SampleResult, ScorerScore } from '../document/schema.js'

/** Passing samples a case needs: ceil(minAgreement × samples). */
export function requiredPasses(minAgreement: number, samples: number): number {
  // The epsilon keeps float noise (0.7 * 10 = 7.000000000000001) from demanding one more sample.
  return Math.max(0, Math.ceil(minAgreement * samples - 1e-9))
}

export function meanOf(values: readonly number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return values.length === 0 ? 0 : sum / values.length
}

/** A sample passes when every scorer passes; its score is their mean. */
export function sampleOutcome(scores: readonly ScorerScore[]): Pick<SampleResult, 'pass' | 'score'> {
  return { pass: scores.every((s) => s.pass), score: meanOf(scores.map((s) => s.score)) }
}

/** A judged case's verdict, score, passed samples and reason, from its samples and the run's rules. */
export function caseOutcome(
  samples: readonly SampleResult[],
  rules: Pick<Rules, 'samples' | 'min_agreement'>,
): Pick<CaseResult, 'verdict' | 'score' | 'passed_samples' | 'reason'> {
  const { samples: count, min_agreement } = rules
  const passed = samples.filter((s) => s.pass).length
  const pass = passed >= requiredPasses(min_agreement, count)
  let reason: string | null = null
  if (!pass) {
    const failing = samples.findIndex((s) => !s.pass)
    const scorer = failing === -1 ? undefined : samples[failing]!.scorers.find((s) => !s.pass)
    reason = scorer === undefined ? `${passed}/${count} samples passed` : `${passed}/${count} samples passed; sample ${failing}, ${scorer.name}: ${scorer.reason ?? 'did not pass'}`
  }
  return { verdict: pass ? 'pass' : 'fail', score: meanOf(samples.map((s) => s.score)), passed_samples: passed, reason }
}
