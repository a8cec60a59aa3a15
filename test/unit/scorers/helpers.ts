import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { configHash } from '../../../src/suite/hashing.js'
import type { ScoreResult, ScorerObject } from '../../../src/suite/types.js'

/** Scores one output the way the driver calls a scorer; `recorded` as in a run that records answers (the default here). */
export async function score(scorer: ScorerObject, output: unknown, expected?: unknown, recorded = true): Promise<ScoreResult> {
  return (await scorer.score({ input: 'in', output, expected, caseId: 'case', recorded })) as ScoreResult
}

/** The config_hash of a one-scorer suite, as the document would carry it. */
export function hashWith(scorer: ScorerObject): string {
  const suite = resolveSuite({ name: 's', cases: [{ id: 'a', input: 1 }], target: () => 1, scorers: [scorer] })
  return configHash(suite.rules, suite.scorers)
}
