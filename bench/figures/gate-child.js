// Figure 7 (in its own process): the regression gate by simulation, through compareRuns itself.
import { importDist, reply } from './common.js'
import { describeSimulation, simulateRegressionGate } from '../lib/regression-simulation.js'

const { pkg, cases, repetitions } = JSON.parse(process.argv[2])
const digline = {
  ...(await importDist(pkg, 'src/document/schema.js')),
  ...(await importDist(pkg, 'src/document/baseline.js')),
  ...(await importDist(pkg, 'src/driver/aggregate.js')),
  ...(await importDist(pkg, 'src/suite/keys.js')),
  ...(await importDist(pkg, 'src/host/judge/compare.js')),
  ...(await importDist(pkg, 'src/stats/prng.js')),
}
const t = Date.now()
const aa = simulateRegressionGate(digline, { cases, repetitions, seed: 42, drop: 0 })
const power = simulateRegressionGate(digline, { cases, repetitions, seed: 42, drop: 0.1 })
reply({ aa, power, text: [describeSimulation(aa), describeSimulation(power)], ms: Date.now() - t })
