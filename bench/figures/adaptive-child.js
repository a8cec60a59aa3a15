// Figure 16 (in its own process): adaptive samples against fixed samples, by seeded simulation through compareRuns (ADR 0360).
import { importDist, reply } from './common.js'
import { simulateAdaptive } from '../lib/adaptive-simulation.js'

const { pkg, repetitions, configs } = JSON.parse(process.argv[2])
const digline = {
  ...(await importDist(pkg, 'src/document/schema.js')),
  ...(await importDist(pkg, 'src/document/baseline.js')),
  ...(await importDist(pkg, 'src/driver/aggregate.js')),
  ...(await importDist(pkg, 'src/suite/keys.js')),
  ...(await importDist(pkg, 'src/host/judge/compare.js')),
  ...(await importDist(pkg, 'src/stats/prng.js')),
}
const t = Date.now()
const out = configs.map((c) => ({
  aa: simulateAdaptive(digline, { ...c, repetitions, drop: 0 }),
  power: simulateAdaptive(digline, { ...c, repetitions: Math.ceil(repetitions / 2), drop: c.drop, seed: c.seed + 1 }),
}))
reply({ configs: out, ms: Date.now() - t })
