// Cases in clusters (issue 28 item 4): A/A pairs of a suite of `topics` × `perTopic` cases whose
// chances move together by topic in each run (a topic effect on the logit scale, drawn afresh per
// run, averaging to zero), through compareRuns: the cases unlabelled (each taken as independent)
// and labelled with their topic (`cluster`, the cluster-robust interval).
import { caseProbabilities, drawRun } from './regression-simulation.js'

const CONFIG_HASH = '5a5a5a5a5a5a'

function normal(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

const logit = (p) => Math.log(p / (1 - p))
const logistic = (x) => 1 / (1 + Math.exp(-x))

export function simulateClusters(digline, { topics, perTopic, spread, repetitions, seed }) {
  const random = digline.seededRandom(seed)
  const cases = topics * perTopic
  let independent = 0
  let clustered = 0
  let designEffect = 0
  for (let rep = 0; rep < repetitions; rep++) {
    const base = caseProbabilities(cases, random).map((p) => Math.min(0.995, Math.max(0.005, p)))
    const shifted = () => {
      const effects = Array.from({ length: topics }, () => spread * normal(random))
      return base.map((p, i) => logistic(logit(p) + effects[Math.floor(i / perTopic)]))
    }
    const b = drawRun(digline, shifted(), random, 0, '2026-01-01T00:00:00.000000Z')
    const r = drawRun(digline, shifted(), random, 0, '2026-01-02T00:00:00.000000Z')
    const baseline = digline.baselineOf(b, digline.keyFor(b.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z')
    if (digline.compareRuns(baseline, r).regressed) independent++
    const label = (doc) => ({ ...doc, results: doc.results.map((x, i) => ({ ...x, cluster: `t${Math.floor(i / perTopic)}` })) })
    const c = digline.compareRuns(digline.baselineOf(label(b), digline.keyFor(b.created_at, CONFIG_HASH), '2026-01-01T12:00:00.000000Z'), label(r))
    if (c.regressed) clustered++
    designEffect += c.difference?.design_effect ?? 1
  }
  return {
    topics,
    perTopic,
    spread,
    repetitions,
    seed,
    independentRate: independent / repetitions,
    clusteredRate: clustered / repetitions,
    meanDesignEffect: designEffect / repetitions,
  }
}
