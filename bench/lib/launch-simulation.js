// A launch of many suites gated at once (issue 28 item 6): A/A launches of `suites` suites, each an
// unchanged stochastic target against its own baseline through compareRuns, then the launch-wide
// decision (familyWise). The share of launches in which some suite fails, per suite alone and under Holm.
import { caseProbabilities, drawRun } from './regression-simulation.js'

const CONFIG_HASH = '5a5a5a5a5a5a'

export function simulateLaunches(digline, { suites, cases, launches, seed }) {
  const random = digline.seededRandom(seed)
  let alone = 0
  let holm = 0
  let gates = 0
  for (let l = 0; l < launches; l++) {
    const outcomes = []
    for (let s = 0; s < suites; s++) {
      const base = caseProbabilities(cases, random)
      const b = { ...drawRun(digline, base, random, 0, '2026-01-01T00:00:00.000000Z'), suite: `s${s}` }
      const r = { ...drawRun(digline, base, random, 0, '2026-01-02T00:00:00.000000Z'), suite: `s${s}` }
      const comparison = digline.compareRuns(digline.baselineOf(b, digline.keyFor(b.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z'), r)
      outcomes.push(
        digline.outcomeOf({ document: r, stored: { key: digline.keyFor(r.created_at, CONFIG_HASH), location: 'simulated' }, thresholds: { met: true, misses: [] } }, comparison),
      )
    }
    if (outcomes.some((o) => o.status === 'regressed')) alone++
    const decided = digline.familyWise(outcomes, 'holm')
    gates += decided.family.gates.length
    if (decided.outcomes.some((o) => o.status === 'regressed')) holm++
  }
  return { suites, cases, launches, seed, aloneRate: alone / launches, holmRate: holm / launches, gatesPerLaunch: gates / launches }
}
