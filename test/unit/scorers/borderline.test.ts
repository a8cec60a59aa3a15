// Borderline verdicts (issue 27 item 5, ADR 0262): a score within the suite's band of its scorer's
// pass_at is marked in the document, counted apart in the summary, and a flip that rests on one is
// named in the comparison.
import { describe, expect, it } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { isCanonicalCaseResult } from '../../../src/document/fast-shape.js'
import { serializeCase } from '../../../src/document/serialize.js'
import { caseResultSchema } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { execute } from '../../../src/driver/execute.js'
import { blankJudging } from '../../../src/host/cache/module-text.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { formatComparisonText, formatVerdictMarkdown } from '../../../src/host/judge/format-comparison.js'
import { formatOutcome } from '../../../src/host/judge/format-outcome.js'
import { outcomeOf } from '../../../src/host/judge/suite-outcome.js'
import { resolveSuite, suiteIdentity } from '../../../src/suite/resolve-suite.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

/** A numeric scorer whose score per case is scripted; pass_at 0.5. */
const definition = (scores: Record<string, number>, band?: number): SuiteDefinition => ({
  name: 'edge',
  cases: Object.keys(scores).map((id) => ({ id, input: id })),
  target: (input) => input,
  scorers: [
    { name: 'judge', passAt: 0.5, score: ({ output }) => scores[output as string]! },
    { name: 'always', score: () => true },
  ],
  ...(band === undefined ? {} : { borderline: band }),
})

async function documentOf(scores: Record<string, number>, createdAt: string, band: number | null = 0.05) {
  const suite = resolveSuite(definition(scores, band ?? undefined))
  const { results } = await execute({ suite })
  const doc = makeRun({ results: 0, suite: 'edge', createdAt })
  doc.results = results
  doc.rules = { ...doc.rules, thresholds: {}, tolerances: { pass_rate: 0.5 } }
  doc.aggregates = aggregate(results, doc.rules)
  return doc
}

describe('borderline', () => {
  it('marks each scorer score within the band of its pass_at, both ends included, and nothing without a band', async () => {
    const doc = await documentOf({ a: 0.52, b: 0.45, c: 0.9, d: 0.44 }, '2026-12-01T10:00:00.000001Z')
    expect(doc.results.map((r) => [r.case_id, r.verdict, r.samples[0]!.scorers.map((s) => s.borderline ?? false)])).toEqual([
      ['a', 'pass', [true, false]],
      ['b', 'fail', [true, false]],
      ['c', 'pass', [false, false]],
      ['d', 'fail', [false, false]],
    ])
    const plain = await documentOf({ a: 0.5 }, '2026-12-01T10:00:00.000001Z', null)
    expect(plain.results[0]!.samples[0]!.scorers[0]).toEqual({ name: 'judge', pass: true, score: 0.5, reason: null })
  })

  it('the flag is written, read back by zod and the fast reader alike, and is not part of config_hash', async () => {
    const doc = await documentOf({ a: 0.52 }, '2026-12-01T10:00:00.000001Z')
    const line = serializeCase(doc.results[0]!)
    expect(line).toContain('"reason":null,"borderline":true}')
    expect(caseResultSchema.parse(JSON.parse(line))).toEqual(doc.results[0])
    expect(isCanonicalCaseResult(JSON.parse(line))).toBe(true)
    expect(
      isCanonicalCaseResult({
        ...doc.results[0],
        samples: [{ ...doc.results[0]!.samples[0], scorers: [{ name: 'judge', pass: true, score: 0.52, reason: null, borderline: false }] }],
      }),
    ).toBe(false)
    expect(suiteIdentity(resolveSuite(definition({ a: 1 }, 0.1))).configHash).toBe(suiteIdentity(resolveSuite(definition({ a: 1 }, undefined))).configHash)
  })

  it("the band is outside the response cache's code text: changing it keeps cached answers", () => {
    const file = (band: string) => `evalSuite({ name: 'edge', cases, target: (input) => input, borderline: ${band}, scorers: [judge] })`
    expect(blankJudging(file('0.05'))).toBe(blankJudging(file('0.2')))
  })

  it('refuses a band that is not inside (0, 0.5)', () => {
    for (const band of [0, -0.1, 0.5, 2]) expect(() => resolveSuite(definition({ a: 1 }, band)), String(band)).toThrow(/borderline/)
  })

  it('the summary counts borderline cases apart, with their verdicts; the comparison names flips at the threshold', async () => {
    const baseline = await documentOf({ a: 0.48, b: 0.9, c: 0.1, d: 0.9 }, '2026-12-01T10:00:00.000001Z')
    const run = await documentOf({ a: 0.53, b: 0.46, c: 0.9, d: 0.9 }, '2026-12-02T10:00:00.000001Z')
    const outcome = outcomeOf({ document: run, stored: undefined, thresholds: { met: true, misses: [] } })
    expect(outcome.borderline).toEqual({ samples: 2, cases: ['a', 'b'], passed: 1, failed: 1 })
    expect(formatOutcome(outcome)).toContain("borderline 2 cases (2 samples) scored within the suite's borderline band of pass_at, 1 passed and 1 failed: a, b")
    const comparison = compareRuns(baselineOf(baseline, keyOf(baseline), '2026-12-01T12:00:00.000001Z'), run)
    // a flipped on a borderline score in both runs, b on one in the run; c flipped far from the threshold
    expect(comparison.flipped).toEqual({ pass_to_fail: ['b'], fail_to_pass: ['a', 'c'] })
    expect(comparison.borderline_flips).toEqual(['a', 'b'])
    expect(formatComparisonText(comparison)).toContain('    flipped at the threshold (2): a, b')
    const md = formatVerdictMarkdown({ ...outcome, comparison })
    expect(md).toContain('**Flipped at the threshold (2)**: `a`, `b`')
    expect(md).toContain("**Borderline:** 2 cases (2 samples) scored within the suite's borderline band of pass_at, 1 passed and 1 failed: `a`, `b`")
  })
})
