// How often the regression decision fires, measured by simulation through compareRuns itself: a
// stochastic target (each case passes with its own probability) run against its own baseline (A/A:
// the false-regression rate) and against a baseline it is worse than by a known drop (the power).
// Not part of the package: the unit test hands it digline's source modules, `npm run bench` the
// built ones (regression-simulation.d.ts says what it needs).

const CONFIG_HASH = '5a5a5a5a5a5a'
const RULES = (tolerance) => ({ samples: 1, min_agreement: 1, thresholds: {}, tolerances: { pass_rate: tolerance } })

/**
 * Per-case pass probabilities of a realistic suite: most cases easy, some middling, a few hard.
 * Expected pass rate about 0.72.
 */
export function caseProbabilities(cases, random) {
  return Array.from({ length: cases }, () => {
    const kind = random()
    if (kind < 0.55) return 0.9 + 0.1 * random()
    if (kind < 0.8) return 0.4 + 0.5 * random()
    return 0.4 * random()
  })
}

export function drawRun(digline, probabilities, random, tolerance, createdAt) {
  const results = probabilities.map((p, i) => {
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
    schema_version: digline.SCHEMA_VERSION,
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
    aggregates: digline.aggregate(results, rules),
    results,
  }
}

/** @param {import('./regression-simulation.js').SimulationParts} digline */
export function simulateRegressionGate(digline, options) {
  const random = digline.seededRandom(options.seed)
  const tolerance = options.tolerance ?? 0
  const base = caseProbabilities(options.cases, random)
  const expected = base.reduce((s, p) => s + p, 0) / base.length
  // A uniform relative cut lowers the expected pass rate by exactly `drop`.
  const worse = base.map((p) => p * (1 - options.drop / expected))
  let flagged = 0
  let naiveFlagged = 0
  for (let i = 0; i < options.repetitions; i++) {
    const baselineRun = drawRun(digline, base, random, tolerance, '2026-01-01T00:00:00.000000Z')
    const run = drawRun(digline, worse, random, tolerance, '2026-01-02T00:00:00.000000Z')
    const baseline = digline.baselineOf(baselineRun, digline.keyFor(baselineRun.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z')
    if (digline.compareRuns(baseline, run).regressed) flagged++
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
export function describeSimulation(r) {
  const what = r.drop === 0 ? 'A/A (no change)' : `a ${(r.drop * 100).toFixed(0)}-point drop`
  return `${what}, ${r.cases} cases, expected pass rate ${(r.expectedPassRate * 100).toFixed(1)}%, tolerance ${(r.tolerance * 100).toFixed(1)} points, ${r.repetitions} repetitions: flagged ${r.flagged} (${(r.rate * 100).toFixed(1)}%); a raw-score gate would flag ${r.naiveFlagged} (${(r.naiveRate * 100).toFixed(1)}%)`
}
