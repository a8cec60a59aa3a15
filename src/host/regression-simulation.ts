// How often the regression decision fires, measured by simulation through compareRuns itself: a
// stochastic target (each case passes with its own probability) run against its own baseline (A/A:
// the false-regression rate) and against a baseline it is worse than by a known drop (the power).
// The test suite and `npm run bench` both print these figures.
import { baselineOf } from '../document/baseline.js'
import { SCHEMA_VERSION, type CaseResult, type RunDocument } from '../document/schema.js'
import { aggregate } from '../driver/aggregate.js'
import { seededRandom, type Random } from '../stats/prng.js'
import { keyFor } from '../suite/keys.js'
import { compareRuns } from './compare.js'

export interface SimulationOptions {
  /** Cases in the suite. */
  cases: number
  /** Baseline/run pairs drawn. */
  repetitions: number
  seed: number
  /** How much lower the run's expected pass rate is than the baseline's (0 for A/A). */
  drop: number
  /** The suite's pass-rate tolerance (default 0). */
  tolerance?: number
}

export interface SimulationResult {
  cases: number
  repetitions: number
  drop: number
  tolerance: number
  /** The target's expected pass rate (the mean of the per-case probabilities). */
  expectedPassRate: number
  /** Repetitions compareRuns flagged as a regression. */
  flagged: number
  /** flagged / repetitions. */
  rate: number
  /** Repetitions a raw-score gate (any drop beyond the tolerance) would have flagged. */
  naiveFlagged: number
  naiveRate: number
}

const CONFIG_HASH = '5a5a5a5a5a5a'
const RULES = (tolerance: number) => ({ samples: 1, min_agreement: 1, thresholds: {}, tolerances: { pass_rate: tolerance } })

/**
 * Per-case pass probabilities of a realistic suite: most cases easy, some middling, a few hard.
 * Expected pass rate about 0.72.
 */
export function caseProbabilities(cases: number, random: Random): number[] {
  return Array.from({ length: cases }, () => {
    const kind = random()
    if (kind < 0.55) return 0.9 + 0.1 * random()
    if (kind < 0.8) return 0.4 + 0.5 * random()
    return 0.4 * random()
  })
}

function drawRun(probabilities: readonly number[], random: Random, tolerance: number, createdAt: string): RunDocument {
  const results: CaseResult[] = probabilities.map((p, i) => {
    const pass = random() < p
    const score = pass ? 1 : 0
    return {
      case_id: `c${String(i).padStart(4, '0')}`,
      verdict: pass ? 'pass' : 'fail',
      score,
      passed_samples: pass ? 1 : 0,
      reason: null,
      error: null,
      samples: [{ pass, score, scorers: [{ name: 'exact', pass, score, reason: null }] }],
    }
  })
  const rules = RULES(tolerance)
  return {
    schema_version: SCHEMA_VERSION,
    digline_version: 'simulation',
    tenant: 'simulation',
    environment: 'simulation',
    suite: 'simulated',
    created_at: createdAt,
    config_hash: CONFIG_HASH,
    record_responses: false,
    target_config: {},
    judge_config: { scorers: [{ name: 'exact', config: {}, pass_at: 0.5 }] },
    artifacts: {},
    metadata: {},
    rules,
    observed: { target_model: null, judge_models: {} },
    aggregates: aggregate(results, rules),
    results,
  }
}

export function simulateRegressionGate(options: SimulationOptions): SimulationResult {
  const random = seededRandom(options.seed)
  const tolerance = options.tolerance ?? 0
  const base = caseProbabilities(options.cases, random)
  const expected = base.reduce((s, p) => s + p, 0) / base.length
  // A uniform relative cut lowers the expected pass rate by exactly `drop`.
  const worse = base.map((p) => p * (1 - options.drop / expected))
  let flagged = 0
  let naiveFlagged = 0
  for (let i = 0; i < options.repetitions; i++) {
    const baselineRun = drawRun(base, random, tolerance, '2026-01-01T00:00:00.000000Z')
    const run = drawRun(worse, random, tolerance, '2026-01-02T00:00:00.000000Z')
    const baseline = baselineOf(baselineRun, keyFor(baselineRun.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z')
    if (compareRuns(baseline, run).regressed) flagged++
    if ((run.aggregates.pass_rate ?? 0) < (baselineRun.aggregates.pass_rate ?? 0) - tolerance) naiveFlagged++
  }
  return {
    cases: options.cases,
    repetitions: options.repetitions,
    drop: options.drop,
    tolerance,
    expectedPassRate: expected,
    flagged,
    rate: flagged / options.repetitions,
    naiveFlagged,
    naiveRate: naiveFlagged / options.repetitions,
  }
}

/** One line for a person: what was simulated and how often the gate fired. */
export function describeSimulation(r: SimulationResult): string {
  const what = r.drop === 0 ? 'A/A (no change)' : `a ${(r.drop * 100).toFixed(0)}-point drop`
  return `${what}, ${r.cases} cases, expected pass rate ${(r.expectedPassRate * 100).toFixed(1)}%, tolerance ${(r.tolerance * 100).toFixed(1)} points, ${r.repetitions} repetitions: flagged ${r.flagged} (${(r.rate * 100).toFixed(1)}%); a raw-score gate would flag ${r.naiveFlagged} (${(r.naiveRate * 100).toFixed(1)}%)`
}
