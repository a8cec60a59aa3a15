// How often the gates on cost and latency per case fire (ADR 0065), measured by simulation through
// compareRuns itself: run documents whose cases carry a target cost (or per-sample latencies), a
// baseline and a run drawn from the same target (A/A: the false alarms) or from one that costs
// `rise` more per case (the power). Not part of the package: the unit test hands it digline's source
// modules, `npm run bench` the built ones (amount-gate-simulation.d.ts says what it needs).

const CONFIG_HASH = '6b6b6b6b6b6b'

/** The suite's cases and how much one answer's amount wobbles between runs, per gate. */
export const AMOUNT_MODELS = {
  // Cases differ in size (σ 0.6 on the log scale around $0.002); one answer's cost wobbles ±50% (σ 0.5).
  cost_per_case: { typical: 0.002, between: 0.6, within: 0.5 },
  // Cases differ in latency (σ 0.5 around 800 ms); one call's latency wobbles ±40% (σ 0.4).
  latency_per_case: { typical: 800, between: 0.5, within: 0.4 },
}

function normal(random) {
  const u = Math.max(random(), 1e-12)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

function drawRun(digline, gate, sizes, scale, random, tolerance, createdAt) {
  const model = AMOUNT_MODELS[gate]
  const results = sizes.map((size, i) => {
    const amount = size * scale * Math.exp(model.within * normal(random))
    const sample = { pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }
    if (gate === 'latency_per_case') sample.latency_ms = Math.max(0, Math.round(amount))
    const result = { case_id: `c${String(i).padStart(4, '0')}`, verdict: 'pass', score: 1, passed_samples: 1, reason: null, error: null, samples: [sample] }
    if (gate === 'cost_per_case') result.target_cost = Math.round(amount * 1e9) / 1e9
    return result
  })
  const rules = { samples: 1, min_agreement: 1, thresholds: {}, tolerances: { [gate]: tolerance } }
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

/** @param {import('./amount-gate-simulation.js').AmountSimulationParts} digline */
export function simulateAmountGate(digline, options) {
  const random = digline.seededRandom(options.seed)
  const tolerance = options.tolerance ?? 0
  const model = AMOUNT_MODELS[options.gate]
  const between = options.between ?? model.between
  const sizes = Array.from({ length: options.cases }, () => model.typical * Math.exp(between * normal(random)))
  let flagged = 0
  // The rule before ADR 0121 (the paired difference ± 1.96 SE over the baseline's mean), from the gate's own figures.
  let beforeFlagged = 0
  let beforeImpossible = 0
  for (let i = 0; i < options.repetitions; i++) {
    const baselineRun = drawRun(digline, options.gate, sizes, 1, random, tolerance, '2026-01-01T00:00:00.000001Z')
    const run = drawRun(digline, options.gate, sizes, 1 + options.rise, random, tolerance, '2026-01-02T00:00:00.000001Z')
    const baseline = digline.baselineOf(baselineRun, digline.keyFor(baselineRun.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000001Z')
    const c = digline.compareRuns(baseline, run)
    if (c.regressed) flagged++
    const g = c.gates.find((x) => x.gate === options.gate)
    const d = g?.difference
    if (d?.sd != null && g.baseline_mean > 0) {
      const half = (1.959964 * d.sd) / Math.sqrt(d.n)
      if ((d.mean - half) / g.baseline_mean > tolerance + 1e-9) beforeFlagged++
      if ((d.mean - half) / g.baseline_mean < -1) beforeImpossible++
    }
  }
  return {
    gate: options.gate,
    cases: options.cases,
    repetitions: options.repetitions,
    rise: options.rise,
    tolerance,
    between,
    flagged,
    rate: flagged / options.repetitions,
    beforeRate: beforeFlagged / options.repetitions,
    beforeImpossibleRate: beforeImpossible / options.repetitions,
  }
}

/** One line for a person: what was simulated and how often the gate fired. */
export function describeAmountSimulation(r) {
  const what = r.rise === 0 ? 'A/A (no change)' : `a ${(r.rise * 100).toFixed(0)}% rise`
  return `${r.gate.replaceAll('_', ' ')}: ${what}, ${r.cases} cases spread σ ${r.between}, tolerance +${(r.tolerance * 100).toFixed(1)}%, ${r.repetitions} repetitions: flagged ${r.flagged} (${(r.rate * 100).toFixed(1)}%)`
}
