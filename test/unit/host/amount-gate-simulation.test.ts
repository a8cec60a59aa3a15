// The gates on cost and latency per case measured by simulation through compareRuns (ADR 0065):
// a target against its own baseline is flagged rarely, a 20% rise at 300 cases is caught.
import { expect, test } from 'vitest'
import { describeAmountSimulation, simulateAmountGate as simulate, type AmountSimulationOptions } from '../../../bench/lib/amount-gate-simulation.js'
import { baselineOf } from '../../../src/document/baseline.js'
import { SCHEMA_VERSION } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { keyFor } from '../../../src/suite/keys.js'

const simulateAmountGate = (options: AmountSimulationOptions) => simulate({ SCHEMA_VERSION, aggregate, baselineOf, keyFor, compareRuns, seededRandom }, options)

const CASES = 300
const REPETITIONS = 400

for (const gate of ['cost_per_case', 'latency_per_case'] as const) {
  test(`${gate}: A/A over ${CASES} cases × ${REPETITIONS} repetitions is flagged ≤ 5% of the time`, () => {
    const aa = simulateAmountGate({ gate, cases: CASES, repetitions: REPETITIONS, seed: 42, rise: 0 })
    console.log(`[amount gate] ${describeAmountSimulation(aa)}`)
    expect(aa.rate).toBeLessThanOrEqual(0.05)
  })

  test(`${gate}: a 20% rise over ${CASES} cases is caught ≥ 80% of the time`, () => {
    const power = simulateAmountGate({ gate, cases: CASES, repetitions: REPETITIONS, seed: 42, rise: 0.2 })
    console.log(`[amount gate] ${describeAmountSimulation(power)}`)
    expect(power.rate).toBeGreaterThanOrEqual(0.8)
  })
}

test('a tolerance moves the bar: a 20% rise under a 15% tolerance is caught far less often than under none', () => {
  const strict = simulateAmountGate({ gate: 'cost_per_case', cases: CASES, repetitions: 200, seed: 9, rise: 0.2 })
  const tolerant = simulateAmountGate({ gate: 'cost_per_case', cases: CASES, repetitions: 200, seed: 9, rise: 0.2, tolerance: 0.15 })
  expect(tolerant.rate).toBeLessThan(strict.rate / 2)
})

test('the simulation is seeded: the same seed gives the same figures', () => {
  const a = simulateAmountGate({ gate: 'latency_per_case', cases: 50, repetitions: 50, seed: 7, rise: 0.1 })
  expect(simulateAmountGate({ gate: 'latency_per_case', cases: 50, repetitions: 50, seed: 7, rise: 0.1 })).toEqual(a)
})
