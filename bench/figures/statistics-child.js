// Figure 14 (in its own process): the gates at every size, by seeded simulation through compareRuns (issue 28).
import { importDist, reply } from './common.js'
import { simulateSizes } from '../lib/small-n-simulation.js'
import { simulateAmountGate } from '../lib/amount-gate-simulation.js'
import { simulateLaunches } from '../lib/launch-simulation.js'
import { simulateClusters } from '../lib/cluster-simulation.js'

const { pkg, repetitions } = JSON.parse(process.argv[2])
const digline = {
  ...(await importDist(pkg, 'src/document/schema.js')),
  ...(await importDist(pkg, 'src/document/baseline.js')),
  ...(await importDist(pkg, 'src/driver/aggregate.js')),
  ...(await importDist(pkg, 'src/suite/keys.js')),
  ...(await importDist(pkg, 'src/host/judge/compare.js')),
  ...(await importDist(pkg, 'src/stats/prng.js')),
  ...(await importDist(pkg, 'src/host/judge/suite-outcome.js')),
  ...(await importDist(pkg, 'src/host/judge/family-wise.js')),
}
const t = Date.now()
const sizes = simulateSizes(digline, { sizes: [5, 10, 20, 50, 300], repetitions, seed: 42 })
const spread = [0.6, 1.5, 2.0].map((between) => ({
  between,
  aa: simulateAmountGate(digline, { gate: 'cost_per_case', cases: 300, repetitions: Math.ceil(repetitions / 2), seed: 42, rise: 0, between }),
  power: simulateAmountGate(digline, { gate: 'cost_per_case', cases: 300, repetitions: Math.ceil(repetitions / 2), seed: 42, rise: 0.2, between }),
}))
const launch = simulateLaunches(digline, { suites: 20, cases: 100, launches: Math.ceil(repetitions / 4), seed: 42 })
const clusters = simulateClusters(digline, { topics: 30, perTopic: 10, spread: 1.3, repetitions: Math.max(1500, Math.ceil(repetitions / 2)), seed: 42 })
reply({ sizes, spread, launch, clusters, ms: Date.now() - t })
