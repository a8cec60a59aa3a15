// Figure 17 (in its own process): the judge-agreement interval's coverage by seeded simulation (ADR 0350).
import { importDist, reply } from './common.js'
import { describeKappaCoverage, simulateKappaCoverage } from '../lib/kappa-simulation.js'

const { pkg, repetitions } = JSON.parse(process.argv[2])
const digline = { ...(await importDist(pkg, 'src/stats/cohen-kappa.js')), ...(await importDist(pkg, 'src/stats/prng.js')) }
const t = Date.now()
const judges = [
  { pi: 0.5, se: 0.85, sp: 0.85 },
  { pi: 0.8, se: 0.9, sp: 0.7 },
]
const cells = []
for (const judge of judges)
  for (const [labels, perAnswer] of [
    [30, 1],
    [100, 1],
    [300, 1],
    [100, 2],
  ])
    cells.push(simulateKappaCoverage(digline, { ...judge, labels, perAnswer, repetitions, seed: 0x16 + labels }))
reply({ cells, text: cells.map(describeKappaCoverage), ms: Date.now() - t })
