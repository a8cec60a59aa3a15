// Adaptive samples (ADR 0360) by seeded simulation through compareRuns: pairs of runs of a stochastic
// target (each case's samples pass with its own chance), A/A and with a per-sample drop. Every case
// draws its max samples once; the fixed-max run uses them all, the adaptive run the prefix its
// stopping rule takes, and a fixed run of k samples (k near the adaptive mean, so about the same
// calls) its first k. The same draws make the comparison exact: any difference is the rule's.
import { caseProbabilities } from './regression-simulation.js'

const CONFIG_HASH = '5a5a5a5a5a5a'

function required(minAgreement, samples) {
  return Math.max(0, Math.ceil(minAgreement * samples - 1e-9))
}

/** Where the stopping rule stops on `passes` (the rule as src/stats/sampling-stop.ts states it, written again here). */
function stopOf(passes, min, max, need) {
  let passed = 0
  for (let taken = 1; taken <= max; taken++) {
    if (passes[taken - 1]) passed++
    if (taken >= max) return { taken, stopped: 'max' }
    if (taken >= min && (passed >= need || taken - passed > max - need)) return { taken, stopped: 'settled' }
  }
  return { taken: max, stopped: 'max' }
}

function sampleOf(pass) {
  const score = pass ? 1 : 0
  return { pass, score, scorers: [{ name: 'exact', pass, score, reason: null }] }
}

function documentOf(digline, rules, cases, createdAt) {
  const results = cases.map(({ passes, stopped }, i) => {
    const passed = passes.filter(Boolean).length
    const verdict = passed >= required(rules.min_agreement, rules.samples) ? 'pass' : 'fail'
    const result = {
      case_id: `c${String(i).padStart(4, '0')}`,
      verdict,
      score: passed / passes.length,
      passed_samples: passed,
      reason: verdict === 'pass' ? null : 'simulated',
      error: null,
      samples: passes.map(sampleOf),
    }
    if (stopped !== undefined) result.sampling_stopped = stopped
    return result
  })
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

/**
 * @param digline compareRuns, baselineOf, keyFor, aggregate, seededRandom, SCHEMA_VERSION
 * @param options { cases, repetitions, seed, min, max, minAgreement, drop, fixed } (`fixed`: the k of the equal-calls fixed run)
 */
export function simulateAdaptive(digline, { cases, repetitions, seed, min, max, minAgreement, drop, fixed }) {
  const random = digline.seededRandom(seed)
  const need = required(minAgreement, max)
  const forms = {
    adaptive: { rules: { samples: max, min_samples: min, min_agreement: minAgreement, thresholds: {}, tolerances: {} }, flagged: 0, calls: 0 },
    fixedMax: { rules: { samples: max, min_agreement: minAgreement, thresholds: {}, tolerances: {} }, flagged: 0, calls: 0 },
    equalCalls: { rules: { samples: fixed, min_agreement: minAgreement, thresholds: {}, tolerances: {} }, flagged: 0, calls: 0 },
  }
  let disagreements = 0
  const draw = (chances) => chances.map((q) => Array.from({ length: max }, () => random() < q))
  for (let rep = 0; rep < repetitions; rep++) {
    const base = caseProbabilities(cases, random)
    const mean = base.reduce((s, p) => s + p, 0) / cases
    const worse = base.map((p) => p * (1 - drop / mean))
    const pair = [draw(base), draw(worse)]
    const runs = {}
    for (const [name, form] of Object.entries(forms)) {
      runs[name] = pair.map((drawn, which) => {
        const shaped = drawn.map((passes) => {
          if (name === 'fixedMax') return { passes }
          if (name === 'equalCalls') return { passes: passes.slice(0, fixed) }
          const stop = stopOf(passes, min, max, need)
          return { passes: passes.slice(0, stop.taken), stopped: stop.stopped }
        })
        return documentOf(digline, form.rules, shaped, which === 0 ? '2026-01-01T00:00:00.000000Z' : '2026-01-02T00:00:00.000000Z')
      })
      const [baselineRun, run] = runs[name]
      form.calls += run.results.reduce((s, r) => s + r.samples.length, 0)
      const baseline = digline.baselineOf(baselineRun, digline.keyFor(baselineRun.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z')
      if (digline.compareRuns(baseline, run).regressed) form.flagged++
    }
    // The adaptive run's verdicts must be the fixed-max run's, case by case.
    for (let which = 0; which < 2; which++)
      runs.adaptive[which].results.forEach((r, i) => {
        if (r.verdict !== runs.fixedMax[which].results[i].verdict) disagreements++
      })
  }
  const rates = Object.fromEntries(Object.entries(forms).map(([name, form]) => [name, { rate: form.flagged / repetitions, callsPerCase: form.calls / repetitions / cases }]))
  return { cases, repetitions, seed, min, max, minAgreement, drop, fixed, disagreements, ...rates }
}
