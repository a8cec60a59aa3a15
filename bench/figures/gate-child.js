// Figure 7 (in its own process): the regression gate by simulation, through compareRuns itself.
import { importDist, reply } from './common.js'

const { pkg, cases, repetitions } = JSON.parse(process.argv[2])
const { simulateRegressionGate, describeSimulation } = await importDist(pkg, 'src/host/regression-simulation.js')
const t = Date.now()
const aa = simulateRegressionGate({ cases, repetitions, seed: 42, drop: 0 })
const power = simulateRegressionGate({ cases, repetitions, seed: 42, drop: 0.1 })
reply({ aa, power, text: [describeSimulation(aa), describeSimulation(power)], ms: Date.now() - t })
