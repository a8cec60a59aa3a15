// compareRuns: the regression decision of ADR 0010, the flipped cases, and what it says when the
// baseline was judged by other rules.
import { describe, expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns, compareWithBaseline } from '../../../src/host/judge/compare.js'
import { formatComparisonText, formatVerdictMarkdown } from '../../../src/host/judge/format-comparison.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

function runWith(verdicts: string, options: { createdAt?: string; tolerance?: number; scoreTolerance?: number; configHash?: string; scores?: number[] } = {}): RunDocument {
  const doc = makeRun({ results: 0, createdAt: options.createdAt ?? '2026-11-29T10:00:00.000001Z', configHash: options.configHash })
  doc.results = [...verdicts].map((v, i): CaseResult => {
    const verdict = v === 'p' ? 'pass' : v === 'f' ? 'fail' : 'error'
    const score = verdict === 'error' ? null : (options.scores?.[i] ?? (verdict === 'pass' ? 1 : 0))
    return {
      case_id: `c${String(i).padStart(3, '0')}`,
      verdict,
      score,
      passed_samples: verdict === 'pass' ? 1 : 0,
      reason: null,
      error: verdict === 'error' ? { cause: 'target', message: 'boom' } : null,
      samples: [],
    }
  })
  doc.rules = {
    ...doc.rules,
    thresholds: {},
    tolerances: { pass_rate: options.tolerance, ...(options.scoreTolerance === undefined ? {} : { mean_score: options.scoreTolerance }) },
  }
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

const asBaseline = (run: RunDocument) => baselineOf(run, keyOf(run), '2026-11-29T12:00:00.000001Z')
const later = '2026-11-30T10:00:00.000001Z'

describe('the regression decision', () => {
  test('6 of 20 cases flipped to fail: regressed, with the flipped ids and a reason', () => {
    const c = compareRuns(asBaseline(runWith('p'.repeat(20))), runWith('pfpfpfpfpfpf' + 'p'.repeat(8), { createdAt: later }))
    expect(c.status).toBe('compared')
    expect(c.regressed).toBe(true)
    expect(c.flipped).toEqual({ pass_to_fail: ['c001', 'c003', 'c005', 'c007', 'c009', 'c011'], fail_to_pass: [] })
    expect(c.difference!.mean).toBeCloseTo(-0.3, 12)
    expect(c.reasons[0]).toMatch(/pass rate −30\.0 points over 20 shared cases, 95% interval \[−52\.0, −2\.4\]/)
  })

  test('the same drop within a tolerance that the interval reaches: not regressed', () => {
    const c = compareRuns(asBaseline(runWith('p'.repeat(20), { tolerance: 0.1 })), runWith('pfpfpfpfpfpf' + 'p'.repeat(8), { createdAt: later, tolerance: 0.1 }))
    expect(c.regressed).toBe(false)
    expect(c.tolerances.pass_rate).toBe(0.1)
  })

  test('one flip in ten is noise: the interval reaches above zero', () => {
    const c = compareRuns(asBaseline(runWith('pppppppppp')), runWith('fppppppppp', { createdAt: later }))
    expect(c.regressed).toBe(false)
    expect(c.flipped.pass_to_fail).toEqual(['c000'])
    expect(c.difference!.ci95!.high).toBeGreaterThan(0)
  })

  test('flips both ways that cancel: no regression', () => {
    const c = compareRuns(asBaseline(runWith('ppppffff')), runWith('ffffpppp', { createdAt: later }))
    expect(c.regressed).toBe(false)
    expect(c.difference!.mean).toBe(0)
    expect(c.flipped.fail_to_pass).toEqual(['c004', 'c005', 'c006', 'c007'])
  })

  test('mean score gates only when the suite sets a tolerance for it', () => {
    const scores = Array(20).fill(0.6)
    const base = runWith('p'.repeat(20))
    expect(compareRuns(asBaseline(base), runWith('p'.repeat(20), { createdAt: later, scores })).regressed).toBe(false)
    const gated = compareRuns(asBaseline(runWith('p'.repeat(20), { scoreTolerance: 0.1 })), runWith('p'.repeat(20), { createdAt: later, scores, scoreTolerance: 0.1 }))
    expect(gated.regressed).toBe(true)
    expect(gated.reasons[0]).toMatch(/^mean score −?0\.400/)
  })

  test('errored cases are left out and said; added and removed cases are listed', () => {
    const c = compareRuns(asBaseline(runWith('pppe')), runWith('ppeppp', { createdAt: later }))
    expect(c.excluded).toEqual(['c002', 'c003'])
    expect(c.added).toEqual(['c004', 'c005'])
    expect(c.shared).toBe(2)
    expect(c.warnings.join(' ')).toMatch(/2 case\(s\) errored/)
  })

  test('one shared case: no interval, so no gate, and it says so', () => {
    const c = compareRuns(asBaseline(runWith('p')), runWith('f', { createdAt: later }))
    expect(c.regressed).toBe(false)
    expect(c.warnings.join(' ')).toMatch(/too few for an interval/)
  })

  test('a baseline of another config_hash is shown but does not gate, and names the promote command', () => {
    const c = compareRuns(asBaseline(runWith('p'.repeat(20), { configHash: 'aaaaaaaaaaaa' })), runWith('f'.repeat(20), { createdAt: later }))
    expect(c.status).toBe('not-comparable')
    expect(c.regressed).toBe(false)
    expect(c.flipped.pass_to_fail).toHaveLength(20)
    expect(c.warnings[0]).toContain(`digline promote --suite capitals --run 20261130T100000000001Z-3f9a0c1b2d4e --replacing 20261129T100000000001Z-aaaaaaaaaaaa`)
  })
})

describe('compareWithBaseline', () => {
  const run = runWith('ppp')
  const noRuns = {
    listRuns: () => Promise.reject(new Error('no run is listed without a baseline')),
    readRun: () => Promise.reject(new Error('no run is read without a baseline')),
  }
  test('no baseline: undefined', async () => {
    expect(await compareWithBaseline({ readBaseline: async () => undefined, ...noRuns }, run)).toBeUndefined()
  })

  test('a baseline that cannot be read comes back as unreadable, with the refusal, never thrown', async () => {
    const { UnreadableBaselineError } = await import('../../../src/store/errors.js')
    const store = {
      ...noRuns,
      readBaseline: async () => {
        throw new UnreadableBaselineError('refused to read the baseline x.json: it is not JSON', 'git checkout -- x.json')
      },
    }
    const c = await compareWithBaseline(store, run)
    expect(c).toMatchObject({ status: 'unreadable', regressed: false, problem: { name: 'UnreadableBaselineError' } })
    expect(formatComparisonText(c!).join('\n')).toContain('UnreadableBaselineError')
  })
})

test('the markdown names the verdict, both sides with their intervals, the difference and the flipped cases', () => {
  const baseline = asBaseline(runWith('p'.repeat(20)))
  const run = runWith('pfpfpfpfpfpf' + 'p'.repeat(8), { createdAt: later })
  const comparison = compareRuns(baseline, run)
  const md = formatVerdictMarkdown({ suite: 'capitals', key: keyOf(run), status: 'regressed', aggregates: run.aggregates, misses: [], comparison })
  expect(md).toContain('### `capitals`: regressed')
  expect(md).toContain(`| key | \`${keyOf(baseline)}\` | \`${keyOf(run)}\` |`)
  expect(md).toMatch(/\| pass rate \| 100\.0% \[83\.9%, 100\.0%\] \| 70\.0% \[48\.1%, 85\.5%\] \|/)
  expect(md).toContain('**Paired difference of pass rates:** −30.0 points, 95% interval [−52.0, −2.4] over 20 shared cases (tolerance 0.0 points).')
  expect(md).toContain('**pass → fail (6)**: `c001`, `c003`, `c005`, `c007`, `c009`, `c011`')
})
