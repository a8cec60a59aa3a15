// Figure 18 (in its own process): variants' pairwise verdicts by seeded simulation (ADR 0301).
import { importDist, reply } from './common.js'
import { simulateVariants } from '../lib/variant-simulation.js'

const { pkg, launches } = JSON.parse(process.argv[2])
const digline = {
  ...(await importDist(pkg, 'src/stats/prng.js')),
  ...(await importDist(pkg, 'src/driver/aggregate.js')),
  ...(await importDist(pkg, 'src/host/judge/variant-comparison.js')),
}
const t = Date.now()
const equal = simulateVariants(digline, { cases: 100, launches, lift: 0, seed: 16 })
const lifted = simulateVariants(digline, { cases: 100, launches, lift: 0.6, seed: 17 })
reply({ equal, lifted, ms: Date.now() - t })
