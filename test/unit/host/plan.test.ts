// `digline plan` (ADR 0066) checked against a brute-force simulation: whole run documents drawn
// sample by sample, aggregated and compared by compareRuns, at the size the plan recommends.
import { describe, expect, test } from 'vitest'
import { caseProbabilities } from '../../../bench/lib/regression-simulation.js'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { planFrom } from '../../../src/host/plan/plan.js'
import { formatPlan } from '../../../src/host/plan/format-plan.js'
import { millerCases, millerDetectable } from '../../../src/stats/closed-form-size.js'
import { passChance } from '../../../src/stats/gate-power.js'
import { seededRandom, type Random } from '../../../src/stats/prng.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

const SAMPLES = 3

/** A run document of `rates.length` cases, each sample passing with its rate; every scorer answer costs `tokens(i)` tokens. */
function draw(rates: readonly number[], random: Random, createdAt: string, tokens?: (i: number) => number): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.rules = { samples: SAMPLES, min_agreement: 1, thresholds: {}, tolerances: {} }
  doc.results = rates.map((q, i): CaseResult => {
    const samples = Array.from({ length: SAMPLES }, () => {
      const pass = random() < q
      return { pass, score: pass ? 1 : 0, scorers: [], ...(tokens === undefined ? {} : { usage: { input_tokens: tokens(i), output_tokens: 0 } }) }
    })
    const passed = samples.filter((s) => s.pass).length
    return { case_id: `c${i}`, verdict: passed === SAMPLES ? 'pass' : 'fail', score: passed / SAMPLES, passed_samples: passed, reason: null, error: null, samples }
  })
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

// The suite as it truly is: per-sample pass rates of an easy/middling/hard mix, 240 cases, 3 samples.
const truth = caseProbabilities(240, seededRandom(3)).map((p) => Math.cbrt(p))
const tokenNoise = seededRandom(5)
const baselineRun = draw(truth, seededRandom(4), '2026-01-01T00:00:00.000001Z', (i) => 100 + (i % 13) * 20 + Math.floor(tokenNoise() * 60))
const baseline = baselineOf(baselineRun, keyOf(baselineRun), '2026-01-01T12:00:00.000001Z')

/** Whole documents through compareRuns: how often a run of `n` cases drawn from the suite as it truly is, cut by `factor`, is flagged. */
function bruteForce(n: number, factor: number, repetitions: number, seed: number): number {
  const random = seededRandom(seed)
  let flagged = 0
  for (let rep = 0; rep < repetitions; rep++) {
    const picked = Array.from({ length: n }, () => truth[Math.floor(random() * truth.length)]!)
    const before = draw(picked, random, '2026-02-01T00:00:00.000001Z')
    const after = draw(
      picked.map((q) => q * factor),
      random,
      '2026-02-02T00:00:00.000001Z',
    )
    if (compareRuns(baselineOf(before, keyOf(before), '2026-02-01T12:00:00.000001Z'), after).regressed) flagged++
  }
  return flagged / repetitions
}

/** The per-sample cut that lowers the suite's true expected pass rate by `detect`, in closed form for 3 of 3 samples: E = mean(q³). */
function closedFormFactor(detect: number): number {
  const expected = truth.reduce((s, q) => s + q ** 3, 0) / truth.length
  return Math.cbrt((expected - detect) / expected)
}

describe('digline plan against a brute-force simulation', () => {
  const plan = planFrom(baseline, [], { detect: 0.1, power: 0.8, seed: 42, repetitions: 600, samples: [] })
  const row = plan.options.find((r) => r.samples === SAMPLES && r.gate === 'verdicts')!

  test('the plan names a size, its power and its false alarms, seeded', () => {
    console.log(`[plan] ${JSON.stringify({ current: plan.current, row, amount: plan.amount })}`)
    expect(row.cases).not.toBeNull()
    expect(row.power!).toBeGreaterThanOrEqual(0.8)
    expect(row.rechecked_power!).toBeGreaterThanOrEqual(0.8)
    expect(plan.evidence.spread.identified).toBe(true)
    // Miller's closed form rests on the same population, so it lands near the simulation (the exact gate is a little more cautious).
    expect(row.closed_form! / row.cases!).toBeGreaterThan(0.75)
    expect(row.closed_form! / row.cases!).toBeLessThan(1.1)
    // both gate forms are sized; the share of passing samples needs fewer cases for the same drop
    const shares = plan.options.find((r) => r.samples === SAMPLES && r.gate === 'samples')!
    expect(shares.cases!).toBeLessThan(row.cases!)
    // the suite as it is: 240 cases catch about this drop, and a drop of that size is caught at 240
    expect(plan.current.detectable!).toBeGreaterThan(0.05)
    expect(plan.current.detectable!).toBeLessThan(0.15)
    expect(Math.abs(plan.current.detectable_closed_form! - plan.current.detectable!)).toBeLessThan(0.02)
    expect(row.false_alarm!).toBeLessThan(0.05)
    expect(planFrom(baseline, [], { detect: 0.1, power: 0.8, seed: 42, repetitions: 600, samples: [] })).toEqual(plan)
  })

  test(`at the size the plan names, whole documents of the suite as it truly is reach the power; at a third of it they do not`, () => {
    const at = bruteForce(row.cases!, closedFormFactor(0.1), 400, 11)
    const third = bruteForce(Math.round(row.cases! / 3), closedFormFactor(0.1), 400, 12)
    const aa = bruteForce(row.cases!, 1, 400, 13)
    console.log(
      `[plan] ${row.cases} cases: brute-force power ${at} (plan ${row.power}, rechecked ${row.rechecked_power}), at a third ${third}; A/A ${aa} (plan ${row.false_alarm})`,
    )
    // the plan rests on one baseline of 240 cases, not on the truth: what it delivers is near what it promised
    expect(at).toBeGreaterThan(0.72)
    expect(at).toBeLessThan(0.92)
    expect(third).toBeLessThan(0.7)
    expect(aa).toBeLessThan(0.06)
  })

  test('the cost figure: a rise the plan says is caught is caught by compareRuns on whole documents', () => {
    expect(plan.amount.gate).toBe('tokens_per_case')
    expect(plan.amount.unmeasured).toBeNull()
    const rise = plan.amount.detectable_rise!
    expect(rise).toBeGreaterThan(0)
    // brute force: resample each case's tokens from the baseline's own samples, the run's × (1 + rise)
    const random = seededRandom(21)
    const perSample = baselineRun.results.map((r) => r.samples.map((s) => s.usage!.input_tokens))
    const caseDoc = (scale: number, createdAt: string, picks: number[]) => {
      const doc = draw(
        picks.map(() => 1),
        random,
        createdAt,
      )
      doc.results.forEach((r, i) => {
        const mine = perSample[picks[i]!]!
        const mean = mine.reduce((s, x) => s + x, 0) / mine.length
        r.samples.forEach((s) => (s.usage = { input_tokens: mean * scale * wobble(random), output_tokens: 0 }))
      })
      return doc
    }
    // the pooled per-sample wobble, as the plan measures it
    const ratios = perSample.flatMap((xs) => xs.map((x) => x / meanOf(xs)))
    const wobble = (r: Random) => ratios[Math.floor(r() * ratios.length)]!
    let flagged = 0
    const repetitions = 600
    for (let rep = 0; rep < repetitions; rep++) {
      const picks = Array.from({ length: baselineRun.results.length }, () => Math.floor(random() * perSample.length))
      const before = caseDoc(1, '2026-03-01T00:00:00.000001Z', picks)
      const after = caseDoc(1 + rise, '2026-03-02T00:00:00.000001Z', picks)
      before.rules.tolerances = { tokens_per_case: 0 }
      after.rules.tolerances = { tokens_per_case: 0 }
      if (compareRuns(baselineOf(before, keyOf(before), '2026-03-01T12:00:00.000001Z'), after).gates.find((g) => g.gate === 'tokens_per_case')!.regressed) flagged++
    }
    console.log(`[plan] tokens per case: plan says +${(rise * 100).toFixed(1)}% is caught in ${plan.amount.power}; brute force ${flagged / repetitions}`)
    expect(Math.abs(flagged / repetitions - plan.amount.power!)).toBeLessThan(0.1)
  })

  test('a baseline of one sample per case cannot show how cases vary: the plan takes the cautious reading and says so', () => {
    const once = draw(truth, seededRandom(8), '2026-01-03T00:00:00.000001Z')
    once.rules.samples = 1
    once.results = once.results.map((r) => ({ ...r, samples: r.samples.slice(0, 1), passed_samples: r.samples[0]!.pass ? 1 : 0, verdict: r.samples[0]!.pass ? 'pass' : 'fail' }))
    once.aggregates = aggregate(once.results, once.rules)
    const p = planFrom(baselineOf(once, keyOf(once), '2026-01-03T12:00:00.000001Z'), [], { detect: 0.1, power: 0.8, seed: 42, repetitions: 300, samples: [] })
    expect(p.evidence.spread.identified).toBe(false)
    expect(formatPlan(p)).toContain('every case was seen in one sample only')
    expect(p.options.map((r) => r.gate)).toEqual(['verdicts'])
  })

  test('cases in clusters: the plan measures the design effect against a later run and multiplies every size by it', () => {
    const label = (doc: RunDocument): RunDocument => ({ ...doc, results: doc.results.map((r, i) => ({ ...r, cluster: `t${i % 24}` })) })
    const later = draw(truth, seededRandom(9), '2026-01-02T00:00:00.000001Z')
    const options = { detect: 0.1, power: 0.8, seed: 42, repetitions: 150, samples: [] }
    const plain = planFrom(baseline, [later], options)
    const clustered = planFrom(baselineOf(label(baselineRun), keyOf(baselineRun), '2026-01-01T12:00:00.000001Z'), [label(later)], options)
    const effect = Math.max(1, clustered.clusters!.design_effect!)
    expect(clustered.clusters).toMatchObject({ count: 24, runs: 1 })
    clustered.options.forEach((r, i) => expect(r.cases).toBe(plain.options[i]!.cases === null ? null : Math.ceil(plain.options[i]!.cases! * effect)))
    expect(formatPlan(clustered)).toContain('cases come in 24 clusters: design effect')
    expect(planFrom(baselineOf(label(baselineRun), keyOf(baselineRun), '2026-01-01T12:00:00.000001Z'), [], options).clusters).toEqual({ count: 24, design_effect: null, runs: 0 })
  })

  test("Miller's closed form, by hand: q = 0.5 in every case, one sample, a 10-point drop: σ² = 0.5 − 0.01, n = ((1.95996 + 0.84162)·0.7 / 0.1)² = 384.6", () => {
    expect(millerCases(0.7, 0.1, 0, 0.8)).toBe(385)
    expect(millerCases(0.7, 0.1, 0.1, 0.8)).toBeNull()
    expect(millerDetectable(() => 0.7, 385, 0, 0.8, 1)).toBeCloseTo(0.1, 3)
  })

  test('passChance is the binomial tail', () => {
    expect(passChance(0.5, 3, 3)).toBeCloseTo(0.125)
    expect(passChance(0.5, 3, 2)).toBeCloseTo(0.5)
    expect(passChance(0.9, 5, 0)).toBe(1)
    expect(passChance(1, 5, 5)).toBe(1)
    expect(passChance(0, 5, 1)).toBe(0)
  })
})

function meanOf(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length
}
