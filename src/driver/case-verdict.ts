// How a sample's scores become its pass and score, and a case's samples its verdict: the one code the
// driver writes documents with and `digline import` checks them with (a document digline could not
// have written is refused, ADR 0163).
import type { CaseResult, Rules, SampleResult, ScorerScore } from '../document/schema.js'
import { samplingStopOf, type SamplingBounds } from '../stats/sampling-stop.js'

/** Passing samples a case needs: ceil(minAgreement × samples). */
export function requiredPasses(minAgreement: number, samples: number): number {
  // The epsilon keeps float noise (0.7 * 10 = 7.000000000000001) from demanding one more sample.
  return Math.max(0, Math.ceil(minAgreement * samples - 1e-9))
}

/** How many of the scores or samples passed, and their mean score (0 when there are none), in one pass. */
function passedAndMean(items: readonly { pass: boolean; score: number }[]): { passed: number; mean: number } {
  let passed = 0
  let sum = 0
  for (const item of items) {
    if (item.pass) passed++
    sum += item.score
  }
  return { passed, mean: items.length === 0 ? 0 : sum / items.length }
}

/** A sample passes when every scorer passes; its score is their mean. */
export function sampleOutcome(scores: readonly ScorerScore[]): Pick<SampleResult, 'pass' | 'score'> {
  const { passed, mean } = passedAndMean(scores)
  return { pass: passed === scores.length, score: mean }
}

/** Adaptive samples' bounds (ADR 0360), or undefined when every case takes `samples`. */
export function samplingBounds(rules: Pick<Rules, 'samples' | 'min_samples' | 'min_agreement'>): SamplingBounds | undefined {
  if (rules.min_samples === undefined) return undefined
  return { min: rules.min_samples, max: rules.samples, required: requiredPasses(rules.min_agreement, rules.samples) }
}

/** With adaptive samples, how many samples the rule takes on these and why it stopped; undefined when it would take more. */
export function samplingStopFor(samples: readonly SampleResult[], bounds: SamplingBounds): ReturnType<typeof samplingStopOf> {
  return samplingStopOf(
    samples.map((s) => s.pass),
    bounds,
  )
}

/** A judged case's verdict, score, passed samples and reason, from its samples and the run's rules. */
export function caseOutcome(
  samples: readonly SampleResult[],
  rules: Pick<Rules, 'samples' | 'min_samples' | 'min_agreement'>,
): Pick<CaseResult, 'verdict' | 'score' | 'passed_samples' | 'reason'> {
  const { samples: count, min_agreement } = rules
  const { passed, mean } = passedAndMean(samples)
  // With adaptive samples the verdict is the one at `samples` (the most): the case stopped once the samples it did not take could not change it.
  const required = requiredPasses(min_agreement, count)
  const pass = passed >= required
  let reason: string | null = null
  if (!pass) {
    const tally = rules.min_samples === undefined ? `${passed}/${count} samples passed` : `${passed}/${samples.length} samples passed, ${required} of ${count} needed`
    const failing = samples.findIndex((s) => !s.pass)
    const scorer = failing === -1 ? undefined : samples[failing]!.scorers.find((s) => !s.pass)
    reason = scorer === undefined ? tally : `${tally}; sample ${failing}, ${scorer.name}: ${scorer.reason ?? 'did not pass'}`
  }
  return { verdict: pass ? 'pass' : 'fail', score: mean, passed_samples: passed, reason }
}
