// `digline plan` on a suite with adaptive samples (ADR 0360): its baseline's cases took 2 to 6
// samples each. The fit uses each case's own count; the adaptive row has the cases and power of the
// 6-sample row (the same verdicts) and the calls the stopping rule takes, checked against runs of the
// true suite drawn sample by sample through the rule.
import { describe, expect, test } from 'vitest'
import { caseProbabilities } from '../../../bench/lib/regression-simulation.js'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, SampleResult } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { caseOutcome } from '../../../src/driver/case-verdict.js'
import { planFrom } from '../../../src/host/plan/plan.js'
import { formatPlan } from '../../../src/host/plan/format-plan.js'
import { seededRandom, type Random } from '../../../src/stats/prng.js'
import { samplingStopAfter } from '../../../src/stats/sampling-stop.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

const RULES = { samples: 6, min_samples: 2, min_agreement: 4 / 6, thresholds: {}, tolerances: {} }
const BOUNDS = { min: 2, max: 6, required: 4 }

function adaptiveCase(q: number, random: Random, i: number): CaseResult {
  const samples: SampleResult[] = []
  let passed = 0
  let stopped
  while (stopped === undefined) {
    const pass = random() < q
    samples.push({ pass, score: pass ? 1 : 0, scorers: [] })
    if (pass) passed++
    stopped = samplingStopAfter(passed, samples.length, BOUNDS)
  }
  return { case_id: `c${i}`, ...caseOutcome(samples, RULES), error: null, samples, sampling_stopped: stopped }
}

const truth = caseProbabilities(240, seededRandom(3)).map((p) => Math.cbrt(p))

describe('plan of an adaptive suite', () => {
  const doc = makeRun({ results: 0, createdAt: '2026-01-01T00:00:00.000001Z' })
  doc.rules = RULES
  const random = seededRandom(4)
  doc.results = truth.map((q, i) => adaptiveCase(q, random, i))
  doc.aggregates = aggregate(doc.results, doc.rules)
  const baseline = baselineOf(doc, keyOf(doc), '2026-01-01T12:00:00.000001Z')
  const plan = planFrom(baseline, [], { detect: 0.1, power: 0.8, seed: 1, repetitions: 200, samples: [3] })

  test('the adaptive row has the 6-sample row’s cases and power, and fewer calls', () => {
    expect(plan.evidence).toMatchObject({ samples: 6, min_samples: 2 })
    const fixed = plan.options.find((r) => r.gate === 'verdicts' && r.samples === 6 && r.min_samples === undefined)!
    const adaptive = plan.options.find((r) => r.min_samples === 2)!
    expect(fixed.cases).not.toBeNull()
    expect(adaptive).toEqual({ ...fixed, min_samples: 2, calls: adaptive.calls })
    expect(adaptive.calls!).toBeLessThan(fixed.calls!)
    expect(formatPlan(plan)).toContain('2–6')
    expect(formatPlan(plan)).toContain('2 to 6 samples each (adaptive)')
  })

  test('the suite as it is: its expected calls are those of runs of the true suite drawn through the rule', () => {
    const rerun = seededRandom(9)
    let taken = 0
    const runs = 50
    for (let r = 0; r < runs; r++) for (const [i, q] of truth.entries()) taken += adaptiveCase(q, rerun, i).samples.length
    const perCaseTrue = taken / runs / truth.length
    const perCasePlanned = plan.current.calls! / plan.current.cases!
    expect(plan.current.min_samples).toBe(2)
    expect(Math.abs(perCasePlanned - perCaseTrue) / perCaseTrue).toBeLessThan(0.06)
    expect(formatPlan(plan)).toMatch(/240 cases × 2 to 6 samples \(about \d\.\d a case, \d+ calls\)/)
  })
})

test("gateOn 'samples' with adaptive samples: the plan refuses to size the shares by name (SharesNotSizedError), saying what to size instead", () => {
  const doc = makeRun({ results: 0, createdAt: '2026-01-01T00:00:00.000001Z' })
  doc.rules = { ...RULES, gate_on: 'samples' }
  const random = seededRandom(5)
  doc.results = truth.slice(0, 40).map((q, i) => adaptiveCase(q, random, i))
  doc.aggregates = aggregate(doc.results, doc.rules)
  const baseline = baselineOf(doc, keyOf(doc), '2026-01-01T12:00:00.000001Z')
  expect(() => planFrom(baseline, [], { detect: 0.1, power: 0.8, seed: 1, repetitions: 50 })).toThrow(
    expect.objectContaining({
      name: 'SharesNotSizedError',
      message: expect.stringContaining("takes 2 to 6 samples per case (adaptive) and gates on each case's share of passing samples"),
    }),
  )
})
