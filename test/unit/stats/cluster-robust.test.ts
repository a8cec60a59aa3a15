// ADR 0243: cases in clusters. The cluster-robust interval and design effect of a fixed table,
// checked against the arithmetic written out by hand; the cluster carried from the suite to the
// document; and the comparison that prints the design effect.
import { describe, expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { runDocumentSchema } from '../../../src/document/schema.js'
import { caseToJson } from '../../../src/document/serialize.js'
import { isCanonicalCaseResult } from '../../../src/document/fast-shape.js'
import { execute } from '../../../src/driver/execute.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { describeDifference } from '../../../src/host/judge/format-comparison.js'
import { dropPValue } from '../../../src/stats/gate-p-value.js'
import { studentCdf } from '../../../src/stats/distributions.js'
import { clusteredDifference } from '../../../src/stats/paired-difference.js'
import { exact } from '../../../src/scorers/exact.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { keyFor } from '../../../src/suite/keys.js'
import { makeRun } from '../../helpers/make-run.js'

// Four clusters of four cases: A −1 −1 0 0, B 0 0 0 0, C +1 0 0 0, D −1 0 −1 0.
const d = [-1, -1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, -1, 0]
const labels = d.map((_, i) => 'ABCD'[Math.floor(i / 4)])

describe('the cluster-robust interval, by hand', () => {
  // mean −3/16 = −0.1875; residual sums per cluster −1.25, 0.75, 1.75, −1.25; their squares 6.75;
  // V = G/(G − 1) · 6.75 / n² = (4/3)(6.75)/256 = 9/256, se = 0.1875; t(3) = 3.182446.
  // Independent: Σd² = 5, s² = (5 − 16 · 0.1875²)/15 = 0.2958333, s²/n = 0.0184896; design effect 1.9014.
  const c = clusteredDifference(d, labels)!

  test('mean, se with G − 1 degrees of freedom, interval and design effect', () => {
    expect(c.method).toBe('cluster')
    expect(c.clusters).toBe(4)
    expect(c.mean).toBeCloseTo(-0.1875, 12)
    expect(c.se!).toBeCloseTo(0.1875, 12)
    expect(c.ci95!.low).toBeCloseTo(-0.1875 - 3.182446 * 0.1875, 5)
    expect(c.ci95!.high).toBeCloseTo(-0.1875 + 3.182446 * 0.1875, 5)
    expect(c.design_effect!).toBeCloseTo(9 / 256 / (0.2958333333 / 16), 6)
  })

  test("its p-value is the t(G − 1) tail, not the sign test's", () => {
    expect(dropPValue(c, 0)).toBeCloseTo(studentCdf(-0.1875 / 0.1875, 3), 12)
  })

  test('every case its own cluster is the plain t interval', () => {
    const own = clusteredDifference(
      d,
      d.map((_, i) => `c${i}`),
    )!
    expect(own.method).toBe('t')
    expect(own.se!).toBeCloseTo(Math.sqrt(0.2958333333 / 16), 8)
  })
})

describe('clusters from the suite to the comparison', () => {
  test("a case's cluster, from its field or from the suite's cluster function, is in its result and its JSON; not in the cases digest", async () => {
    const cases = [
      { id: 'a', input: 1, expected: 1, metadata: { topic: 'x' } },
      { id: 'b', input: 2, expected: 2, metadata: { topic: 'y' }, cluster: 'own' },
    ]
    const byField = resolveSuite({ name: 's', cases, target: (x: number) => x, scorers: [exact()] })
    const byFunction = resolveSuite({ name: 's', cases, target: (x: number) => x, scorers: [exact()], cluster: (c) => String(c.metadata?.topic) })
    expect(byField.cases.map((c) => c.cluster)).toEqual([undefined, 'own'])
    expect(byFunction.cases.map((c) => c.cluster)).toEqual(['x', 'y'])
    const { results } = await execute({ suite: byFunction })
    expect(results.map((r) => r.cluster)).toEqual(['x', 'y'])
    const json = caseToJson(results[0]!)
    expect(json.cluster).toBe('x')
    expect(isCanonicalCaseResult(json)).toBe(true)
  })

  test('the comparison of clustered cases is cluster-robust and prints the design effect', () => {
    const base = makeRun({ results: 16 })
    base.results = base.results.map((r, i) => ({ ...r, verdict: 'pass', score: 1, passed_samples: 1, reason: null, cluster: labels[i] }))
    const run = structuredClone(base)
    run.created_at = '2026-11-30T00:00:00.000000Z'
    d.forEach((x, i) => {
      if (x === -1) run.results[i] = { ...run.results[i]!, verdict: 'fail', score: 0, passed_samples: 0 }
    })
    // C's +1: that case failed in the baseline
    base.results[8] = { ...base.results[8]!, verdict: 'fail', score: 0, passed_samples: 0 }
    expect(runDocumentSchema.safeParse(base).success).toBe(true)
    const c = compareRuns(baselineOf(base, keyFor(base.created_at, base.config_hash), '2026-11-29T23:00:00.000000Z'), run)
    expect(c.difference!.method).toBe('cluster')
    expect(describeDifference(c)).toContain('cluster-robust over 4 clusters (design effect 1.90)')
  })
})
