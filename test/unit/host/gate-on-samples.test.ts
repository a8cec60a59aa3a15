// Issue 28, "use every sample": `gateOn: 'samples'` gates the pass rate on each case's share of
// passing samples (ADR 0122); it is a rule, so it enters config_hash, and only when set.
import { expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { fastRunDocument } from '../../../src/document/fast-shape.js'
import { runDocumentSchema, type CaseResult, type RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { describeDifference } from '../../../src/host/judge/format-comparison.js'
import { resolveSuite, suiteIdentity } from '../../../src/suite/resolve-suite.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { caseOutcome, samplingBounds } from '../../../src/driver/case-verdict.js'
import { samplingStopAfter, type SamplingStop } from '../../../src/stats/sampling-stop.js'
import { seededRandom } from '../../../src/stats/prng.js'

const suite = (gateOn?: 'verdicts' | 'samples') =>
  resolveSuite({ name: 's', cases: [{ id: 'a', input: 1 }], target: (x: unknown) => x, scorers: [() => true], samples: 5, ...(gateOn === undefined ? {} : { gateOn }) })

test("gateOn enters the rules and config_hash only when it is 'samples'", () => {
  expect(suite().rules.gate_on).toBeUndefined()
  expect(suite('verdicts').rules.gate_on).toBeUndefined()
  expect(suite('samples').rules.gate_on).toBe('samples')
  const hash = (s: ReturnType<typeof suite>) => suiteIdentity(s).configHash
  expect(hash(suite('verdicts'))).toBe(hash(suite()))
  expect(hash(suite('samples'))).not.toBe(hash(suite()))
})

/** 40 cases of 5 samples, each passing `passed(i)` samples; a case's verdict needs all 5 (minAgreement 1). */
function run(passed: (i: number) => number, createdAt: string, gateOn: boolean): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.rules = { samples: 5, min_agreement: 1, thresholds: {}, tolerances: {}, ...(gateOn ? { gate_on: 'samples' as const } : {}) }
  doc.results = Array.from({ length: 40 }, (_, i): CaseResult => {
    const k = passed(i)
    const samples = Array.from({ length: 5 }, (_, s) => ({ pass: s < k, score: s < k ? 1 : 0, scorers: [] }))
    return { case_id: `c${i}`, verdict: k === 5 ? 'pass' : 'fail', score: k / 5, passed_samples: k, reason: null, error: null, samples }
  })
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

test('a per-sample drop that no verdict shows is caught on the shares of passing samples, not on the verdicts', () => {
  for (const gateOn of [false, true]) {
    const before = run(() => 4, '2026-11-29T10:00:00.000001Z', gateOn)
    const after = run((i) => (i % 2 === 0 ? 2 : 3), '2026-11-30T10:00:00.000001Z', gateOn)
    const c = compareRuns(baselineOf(before, keyOf(before), '2026-11-29T12:00:00.000001Z'), after)
    expect(c.regressed).toBe(gateOn)
    if (gateOn) {
      expect(c.difference!.mean).toBeCloseTo(-0.3, 12)
      expect(c.reasons[0]).toMatch(/^pass rate \(share of passing samples per case\) −30\.0 points/)
      expect(describeDifference(c)).toContain("on each case's share of passing samples")
    } else expect(c.difference!.mean).toBe(0)
  }
})

test('a document with gate_on passes both readers', () => {
  const doc = run(() => 4, '2026-11-29T10:00:00.000001Z', true)
  expect(runDocumentSchema.parse(doc).rules.gate_on).toBe('samples')
  expect(fastRunDocument(doc)?.rules.gate_on).toBe('samples')
})

// ADR 0417: with adaptive samples each case's share is taken over the samples it actually took. Both
// runs stop by the same rule, so under no change their shares are alike in distribution and the
// paired interval keeps its level; a drop of every case's chance still shows.
const ADAPTIVE = { samples: 6, min_samples: 2, min_agreement: 2 / 3, thresholds: {}, tolerances: {}, gate_on: 'samples' as const }

function adaptiveRun(chances: readonly number[], random: () => number, createdAt: string): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.rules = { ...ADAPTIVE }
  const bounds = samplingBounds(ADAPTIVE)!
  doc.results = chances.map((q, i): CaseResult => {
    const samples: CaseResult['samples'] = []
    let stopped: SamplingStop | undefined
    while (stopped === undefined) {
      const pass = random() < q
      samples.push({ pass, score: pass ? 1 : 0, scorers: [] })
      stopped = samplingStopAfter(samples.filter((s) => s.pass).length, samples.length, bounds)
    }
    return { case_id: `c${i}`, ...caseOutcome(samples, ADAPTIVE), error: null, samples, sampling_stopped: stopped }
  })
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

test('adaptive samples gated on shares: A/A launches flag at about the one-sided 2.5%, a drop of 0.3 in every case is caught', () => {
  const random = seededRandom(417)
  let falseAlarms = 0
  let caught = 0
  const pairs = 300
  for (let k = 0; k < pairs; k++) {
    const chances = Array.from({ length: 60 }, () => 0.4 + 0.6 * random())
    const before = adaptiveRun(chances, random, '2026-11-29T10:00:00.000001Z')
    const base = baselineOf(before, keyOf(before), '2026-11-29T12:00:00.000001Z')
    if (compareRuns(base, adaptiveRun(chances, random, '2026-11-30T10:00:00.000001Z')).regressed) falseAlarms++
    const worse = chances.map((q) => Math.max(0, q - 0.3))
    if (compareRuns(base, adaptiveRun(worse, random, '2026-11-30T10:00:00.000001Z')).regressed) caught++
  }
  expect(falseAlarms / pairs).toBeLessThanOrEqual(0.05)
  expect(caught / pairs).toBeGreaterThanOrEqual(0.9)
  // every case's share is over the samples it took: fewer than 6 for a settled case
  const one = adaptiveRun([0.95, 0.05], seededRandom(1), '2026-11-29T10:00:00.000001Z')
  expect(one.results.map((r) => r.samples.length).every((n) => n >= 2 && n <= 6)).toBe(true)
})
