// The breakdown by tag in the comparison: per tag its pass rate with a Wilson interval, its mean
// score, and the paired difference against the baseline; the tags that moved are named; a slice's
// left-out cases are not "removed since the baseline".
import { describe, expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { formatComparisonText, formatVerdictMarkdown } from '../../../src/host/judge/format-comparison.js'
import { tagBreakdown } from '../../../src/host/judge/tag-breakdown.js'
import { wilson } from '../../../src/stats/wilson.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

/** `verdicts[i]` p/f for case i; cases 0..29 are tagged `billing`, 30..59 `support`, every fifth also `eu`. */
function run(verdicts: (i: number) => 'p' | 'f', createdAt: string, count = 60): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.results = Array.from({ length: count }, (_, i): CaseResult => {
    const pass = verdicts(i) === 'p'
    return {
      case_id: `c${String(i).padStart(3, '0')}`,
      verdict: pass ? 'pass' : 'fail',
      score: pass ? 1 : 0,
      passed_samples: pass ? 1 : 0,
      reason: null,
      error: null,
      samples: [],
      tags: [i < 30 ? 'billing' : 'support', ...(i % 5 === 0 ? ['eu'] : [])],
    }
  })
  doc.rules = { ...doc.rules, thresholds: {}, tolerances: {} }
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

const base = run(() => 'p', '2026-11-29T10:00:00.000001Z')
const baseline = baselineOf(base, keyOf(base), '2026-11-29T12:00:00.000001Z')
// billing drops hard (20 of its 30 cases fail now), support is unchanged.
const worse = run((i) => (i < 20 ? 'f' : 'p'), '2026-11-30T10:00:00.000001Z')

describe('tagBreakdown', () => {
  test('per tag: cases, pass rate with its Wilson interval, mean score; tags in code-point order', () => {
    const slices = tagBreakdown(worse.results)
    expect(slices.map((s) => s.tag)).toEqual(['billing', 'eu', 'support'])
    const billing = slices[0]!
    expect(billing.cases).toBe(30)
    expect(billing.pass_rate).toEqual({ mean: 10 / 30, ci95: wilson(10, 30), n: 30 })
    expect(billing.mean_score?.mean).toBeCloseTo(1 / 3)
    expect(billing.mean_score?.ci95?.low).toBeGreaterThan(0)
    expect(billing.cost_per_case).toBeNull()
    expect(billing.against).toBeUndefined()
  })

  test('against the baseline: the tag that dropped moved, the unchanged one did not', () => {
    const slices = tagBreakdown(worse.results, base.results)
    const [billing, eu, support] = slices
    expect(billing!.against!.pass_rate!.mean).toBeCloseTo(-20 / 30)
    expect(billing!.against!.pass_rate!.ci95!.high).toBeLessThan(0)
    expect(billing!.moved).toBe(true)
    expect(support!.against!.pass_rate!.mean).toBe(0)
    expect(support!.moved).toBe(false)
    expect(eu!.against!.shared).toBe(12)
  })

  test('a run without tags has no breakdown', () => {
    expect(tagBreakdown(makeRun({ results: 5 }).results)).toEqual([])
  })
})

describe('in the comparison', () => {
  test('the text and the markdown show every tag and name the slices that moved', () => {
    const c = compareRuns(baseline, worse)
    expect(c.tags?.map((s) => s.tag)).toEqual(['billing', 'eu', 'support'])
    const text = formatComparisonText(c).join('\n')
    expect(text).toMatch(/by tag billing: 30 cases, pass rate 33\.3% \[[0-9.]+%, [0-9.]+%\], mean score 0\.333 \[/)
    expect(text).toMatch(/pass rate against the baseline −66\.7 points \[−[0-9.]+, −[0-9.]+\] over 30 shared/)
    expect(text).toContain('slices that moved against the baseline (the 95% interval leaves zero): billing, eu')
    const md = formatVerdictMarkdown({ suite: 's', key: keyOf(worse), status: 'regressed', aggregates: worse.aggregates, misses: [], comparison: c })
    expect(md).toContain('**By tag:**')
    expect(md).toContain('- by tag support: 30 cases, pass rate 100.0%')
  })

  test('a slice is compared over its own cases: the others are not "removed since the baseline"', () => {
    const slice = run(() => 'p', '2026-11-30T10:00:00.000001Z', 30)
    expect(compareRuns(baseline, slice).removed).toHaveLength(30)
    slice.slice = { tags: ['billing'], suite_cases: 60 }
    const c = compareRuns(baseline, slice)
    expect(c.removed).toEqual([])
    expect(c.shared).toBe(30)
    expect(c.warnings).toContain("this run is a slice (tags billing: 30 of the suite's 60 cases), compared over its own cases; a slice is never promoted")
  })
})
