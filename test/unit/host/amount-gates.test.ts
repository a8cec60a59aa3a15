// The gates on cost, tokens and latency per case (ADR 0065) and the flaky cases (ADR 0067), through
// compareRuns itself: what regresses, what does not, and what the comparison says about each.
import { describe, expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, RunDocument, SampleResult } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns, compareWithBaseline } from '../../../src/host/judge/compare.js'
import { openStore } from '../../../src/store/open-store.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatComparisonText, formatVerdictMarkdown } from '../../../src/host/judge/format-comparison.js'
import { outcomeOf } from '../../../src/host/judge/suite-outcome.js'
import { judgeThresholds } from '../../../src/driver/thresholds.js'
import { withTargetCosts } from '../../../src/driver/cost.js'
import type { RuleTolerances } from '../../../src/suite/types.js'
import { keyOf, makeRun, promoteFirst } from '../../helpers/make-run.js'

interface CaseSpec {
  /** Passed samples out of `samples`. */
  passed: number
  tokens?: number
  latency?: number
  cost?: number
}

function run(cases: readonly CaseSpec[], options: { samples?: number; createdAt?: string; tolerances?: RuleTolerances } = {}): RunDocument {
  const samples = options.samples ?? 1
  const doc = makeRun({ results: 0, createdAt: options.createdAt ?? '2026-11-29T10:00:00.000001Z' })
  doc.rules = { samples, min_agreement: 0.5, thresholds: {}, tolerances: options.tolerances ?? {} }
  doc.results = cases.map((c, i): CaseResult => {
    const sampleResults = Array.from({ length: samples }, (_, s): SampleResult => {
      const pass = s < c.passed
      const sample: SampleResult = { pass, score: pass ? 1 : 0, scorers: [{ name: 'exact', pass, score: pass ? 1 : 0, reason: null }] }
      if (c.tokens !== undefined) sample.usage = { input_tokens: c.tokens / samples, output_tokens: 0 }
      if (c.latency !== undefined) sample.latency_ms = c.latency
      return sample
    })
    const pass = c.passed >= Math.ceil(samples / 2)
    return {
      case_id: `c${String(i).padStart(3, '0')}`,
      verdict: pass ? 'pass' : 'fail',
      score: c.passed / samples,
      passed_samples: c.passed,
      reason: null,
      error: null,
      samples: sampleResults,
      ...(c.cost === undefined ? {} : { target_cost: c.cost }),
    }
  })
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

const asBaseline = (doc: RunDocument) => baselineOf(doc, keyOf(doc), '2026-11-29T12:00:00.000001Z')
const later = '2026-11-30T10:00:00.000001Z'
// Per-case amounts that vary from case to case (as real token counts do) with a small per-run wobble.
const amounts = (n: number, scale: number, wobble: number): number[] => Array.from({ length: n }, (_, i) => (100 + 37 * (i % 9)) * scale * (1 + wobble * (((i * 7) % 5) - 2)))

describe('tokens per case', () => {
  const base = amounts(40, 1, 0).map((tokens) => ({ passed: 1, tokens }))
  test('30% more tokens per case at the same pass rate regresses under a 10% tolerance, and says by how much with its interval', () => {
    const more = amounts(40, 1.3, 0.02).map((tokens) => ({ passed: 1, tokens }))
    const c = compareRuns(asBaseline(run(base, { tolerances: { tokens_per_case: 0.1 } })), run(more, { createdAt: later, tolerances: { tokens_per_case: 0.1 } }))
    const gate = c.gates.find((g) => g.gate === 'tokens_per_case')!
    expect(c.difference?.mean).toBe(0)
    expect(gate.relative!.mean).toBeGreaterThan(0.25)
    expect(gate.relative!.ci95!.low).toBeGreaterThan(0.1)
    expect(gate.regressed).toBe(true)
    expect(c.regressed).toBe(true)
    expect(c.reasons.join('\n')).toMatch(/^tokens per case \+\d+\.\d% per case, 95% interval \[\+\d+\.\d%, \+\d+\.\d%\] over 40 shared cases/m)
    const text = formatComparisonText(c).join('\n')
    expect(text).toContain('tokens per case')
    const md = formatVerdictMarkdown({
      ...outcomeOf({ document: run(more, { createdAt: later }), stored: undefined, thresholds: judgeThresholds(run(more).aggregates, run(more).rules) }, c),
    })
    expect(md).toContain('**Tokens per case:**')
    expect(md).toContain('**regressed**')
  })

  test('the same rise within the tolerance does not regress; without a tolerance the gate is computed and does not gate', () => {
    const more = amounts(40, 1.3, 0.02).map((tokens) => ({ passed: 1, tokens }))
    const tolerant = compareRuns(asBaseline(run(base, { tolerances: { tokens_per_case: 0.5 } })), run(more, { createdAt: later, tolerances: { tokens_per_case: 0.5 } }))
    expect(tolerant.regressed).toBe(false)
    const undeclared = compareRuns(asBaseline(run(base)), run(more, { createdAt: later }))
    const gate = undeclared.gates.find((g) => g.gate === 'tokens_per_case')!
    expect(gate.tolerance).toBeNull()
    expect(gate.relative!.mean).toBeGreaterThan(0.25)
    expect(undeclared.regressed).toBe(false)
    expect(formatComparisonText(undeclared).join('\n')).not.toContain('tokens per case')
  })

  test('an unchanged system with per-run wobble does not regress under a zero tolerance', () => {
    const same = amounts(40, 1, 0.03).map((tokens) => ({ passed: 1, tokens }))
    const c = compareRuns(asBaseline(run(base, { tolerances: { tokens_per_case: 0 } })), run(same, { createdAt: later, tolerances: { tokens_per_case: 0 } }))
    const gate = c.gates.find((g) => g.gate === 'tokens_per_case')!
    expect(gate.relative!.ci95!.low).toBeLessThanOrEqual(0)
    expect(c.regressed).toBe(false)
  })
})

describe('cost and latency per case', () => {
  test('a cost rise regresses; runs that recorded no cost leave a declared gate unmeasured, with a warning', () => {
    const base = amounts(30, 0.001, 0).map((cost) => ({ passed: 1, cost }))
    const dearer = amounts(30, 0.0015, 0.01).map((cost) => ({ passed: 1, cost }))
    const c = compareRuns(asBaseline(run(base, { tolerances: { cost_per_case: 0.2 } })), run(dearer, { createdAt: later, tolerances: { cost_per_case: 0.2 } }))
    expect(c.gates.find((g) => g.gate === 'cost_per_case')!.regressed).toBe(true)
    const none = compareRuns(
      asBaseline(run([{ passed: 1 }, { passed: 1 }], { tolerances: { cost_per_case: 0.2 } })),
      run([{ passed: 1 }, { passed: 1 }], { createdAt: later, tolerances: { cost_per_case: 0.2 } }),
    )
    expect(none.regressed).toBe(false)
    expect(none.warnings.join('\n')).toContain('cost per case gate did not gate')
  })

  test('latency per case is the median of its samples; a slower target regresses', () => {
    const base = amounts(30, 1, 0).map((latency) => ({ passed: 3, latency }))
    const slower = amounts(30, 2, 0.02).map((latency) => ({ passed: 3, latency }))
    const c = compareRuns(
      asBaseline(run(base, { samples: 3, tolerances: { latency_per_case: 0.25 } })),
      run(slower, { samples: 3, createdAt: later, tolerances: { latency_per_case: 0.25 } }),
    )
    const gate = c.gates.find((g) => g.gate === 'latency_per_case')!
    expect(gate.baseline_mean).toBeCloseTo(amounts(30, 1, 0).reduce((s, x) => s + x, 0) / 30)
    expect(gate.regressed).toBe(true)
  })
})

describe('replays and unknown costs', () => {
  test('a replay calls no target, so it has no amount gates', () => {
    const base = amounts(10, 1, 0).map((tokens) => ({ passed: 1, tokens }))
    const replay = {
      ...run(
        base.map(() => ({ passed: 1 })),
        { createdAt: later, tolerances: { tokens_per_case: 0.1 } },
      ),
      rejudged_from: '20261129T100000000001Z-3f9a0c1b2d4e',
    }
    const c = compareRuns(asBaseline(run(base, { tolerances: { tokens_per_case: 0.1 } })), replay)
    expect(c.gates).toEqual([])
    expect(c.regressed).toBe(false)
  })

  test('a case whose samples reported no usage, or whose model has no price, gets no target cost (not 0)', () => {
    const doc = run([{ passed: 1, tokens: 1000 }, { passed: 1 }])
    const pricing = { prices: { m: { input: 2, output: 8 } }, target: ['m'], judges: {} }
    const costed = withTargetCosts(doc.results, pricing)
    expect(costed[0]!.target_cost).toBeCloseTo(0.002, 9)
    expect(costed[1]!.target_cost).toBeUndefined()
    expect(withTargetCosts(doc.results, { ...pricing, target: ['other'] })[0]!.target_cost).toBeUndefined()
  })
})

describe('flaky cases', () => {
  test('cases whose samples disagree are named, with the share of the pass-rate variance they carry', () => {
    // 20 steady passes, 4 steady fails, 6 cases split 2 of 3; two of the split cases flip.
    const steady: CaseSpec[] = [...Array.from({ length: 20 }, () => ({ passed: 3 })), ...Array.from({ length: 4 }, () => ({ passed: 0 }))]
    const base = [...steady, { passed: 2 }, { passed: 2 }, { passed: 1 }, { passed: 1 }, { passed: 2 }, { passed: 1 }]
    const now = [...steady, { passed: 1 }, { passed: 2 }, { passed: 2 }, { passed: 1 }, { passed: 2 }, { passed: 1 }]
    const c = compareRuns(asBaseline(run(base, { samples: 3 })), run(now, { samples: 3, createdAt: later }))
    expect(c.flaky.cases).toEqual(['c024', 'c025', 'c026', 'c027', 'c028', 'c029'])
    expect(c.flaky.flipped).toEqual(['c024', 'c026'])
    // Only the two flipped cases have a nonzero difference, and both are flaky.
    expect(c.flaky.variance_share).toBeCloseTo(1)
    expect(formatComparisonText(c).join('\n')).toContain('flaky: 6 cases (their samples disagree), 2 of them flipped; their flips are expected noise and carry 100%')
  })

  test('a steady case that flips is not flaky: its flip is a change, not noise', () => {
    const c = compareRuns(
      asBaseline(run([{ passed: 3 }, { passed: 3 }, { passed: 0 }], { samples: 3 })),
      run([{ passed: 0 }, { passed: 3 }, { passed: 0 }], { samples: 3, createdAt: later }),
    )
    expect(c.flaky.cases).toEqual([])
    expect(c.flaky.variance_share).toBe(0)
    expect(formatComparisonText(c).join('\n')).not.toContain('flaky')
  })

  test('with one sample, a case whose verdict moved across the recent runs of the same rules is flaky; a case that held is not', () => {
    const earlier = ['2026-01-01T12:00:00.000001Z', '2026-01-02T12:00:00.000001Z']
    const base = [{ passed: 1 }, { passed: 1 }, { passed: 0 }]
    const recent = [run([{ passed: 0 }, { passed: 1 }, { passed: 0 }], { createdAt: earlier[0] }), run([{ passed: 1 }, { passed: 1 }, { passed: 0 }], { createdAt: earlier[1] })]
    const now = run([{ passed: 0 }, { passed: 0 }, { passed: 0 }], { createdAt: later })
    const alone = compareRuns(asBaseline(run(base)), now)
    expect(alone.flaky.cases).toEqual([])
    const c = compareRuns(asBaseline(run(base)), now, recent)
    expect(c.flaky.cases).toEqual(['c000'])
    expect(c.flaky.flipped).toEqual(['c000'])
    expect(c.flaky.recent_runs).toBe(2)
    expect(formatComparisonText(c).join('\n')).toContain('flaky: 1 case (their samples disagree, here or in the 2 recent runs of these rules), 1 of them flipped')
  })

  test('compareWithBaseline reads the recent runs from a real store: the same rules only, no replay, not the baseline run, not later ones', async () => {
    const store = openStore({ store: join(mkdtempSync(join(tmpdir(), 'digline-flaky-')), '.digline') })
    const at = (day: number) => `2026-01-${String(day).padStart(2, '0')}T12:00:00.000001Z`
    const base = run([{ passed: 1 }, { passed: 1 }], { createdAt: at(1) })
    await store.writeRun(base)
    const key = keyOf(base)
    await promoteFirst(store, base, at(1))
    // c000 failed in an earlier run of these rules: flaky. c001 failed only in a run of other rules, a replay and a later run.
    await store.writeRun(run([{ passed: 0 }, { passed: 1 }], { createdAt: at(2) }))
    await store.writeRun({ ...run([{ passed: 1 }, { passed: 0 }], { createdAt: at(3) }), config_hash: 'ffffffffffff' })
    await store.writeRun({ ...run([{ passed: 1 }, { passed: 0 }], { createdAt: at(4) }), rejudged_from: key })
    await store.writeRun(run([{ passed: 1 }, { passed: 0 }], { createdAt: at(9) }))
    const now = run([{ passed: 1 }, { passed: 1 }], { createdAt: at(5) })
    const c = await compareWithBaseline(store, now)
    expect(c?.status).toBe('compared')
    if (c?.status !== 'compared') return
    expect(c.flaky.recent_runs).toBe(1)
    expect(c.flaky.cases).toEqual(['c000'])
  })
})
