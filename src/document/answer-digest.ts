// The digest a review record names (docs/adr/0341): which answers of a case a person looked at. It
// covers each sample's answer as filed, in sample order, without the measurements around it
// (usage, latency, the cache flag), so the same answers re-judged in a replay keep their digest.
import { canonicalJson, sha256Hex } from '../suite/hashing.js'
import { SAMPLE_ANSWER_FIELDS } from './answer-shape.js'
import type { CaseResult } from './schema.js'

const MEASUREMENTS: ReadonlySet<string> = new Set(['usage', 'latency_ms', 'cached'])

/** sha256 (64 hex) of the canonical JSON of the case's samples' answer fields. */
export function answerDigestOf(result: Pick<CaseResult, 'samples'>): string {
  const answers = result.samples.map((sample) => {
    const answer: Record<string, unknown> = {}
    for (const name of SAMPLE_ANSWER_FIELDS) {
      const value = (sample as Record<string, unknown>)[name]
      if (!MEASUREMENTS.has(name) && value !== undefined) answer[name] = value
    }
    return answer
  })
  return sha256Hex(canonicalJson(answers))
}
