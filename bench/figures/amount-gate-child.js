// Figure 13 (in its own process): the gates on cost and latency per case by simulation, through compareRuns itself.
import { importDist, reply } from './common.js'
import { describeAmountSimulation, simulateAmountGate } from '../lib/amount-gate-simulation.js'

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
const out = {}
for (const gate of ['cost_per_case', 'latency_per_case']) {
  out[gate] = {
    aa: simulateAmountGate(digline, { gate, cases, repetitions, seed: 42, rise: 0 }),
    power: simulateAmountGate(digline, { gate, cases, repetitions, seed: 42, rise: 0.2 }),
  }
}
reply({ ...out, text: Object.values(out).flatMap((g) => [describeAmountSimulation(g.aa), describeAmountSimulation(g.power)]), ms: Date.now() - t })
