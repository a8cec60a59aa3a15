// The regression decision measured by simulation through compareRuns (ADR 0010): a stochastic
// target against its own baseline is flagged rarely, and a real 10-point drop is caught.
import { expect, test } from 'vitest'
import { describeSimulation, simulateRegressionGate as simulate, type SimulationOptions } from '../../../bench/lib/regression-simulation.js'
import { baselineOf } from '../../../src/document/baseline.js'
import { SCHEMA_VERSION } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { keyFor } from '../../../src/suite/keys.js'

const simulateRegressionGate = (options: SimulationOptions) => simulate({ SCHEMA_VERSION, aggregate, baselineOf, keyFor, compareRuns, seededRandom }, options)

const CASES = 300
const REPETITIONS = 2000

test(`A/A: the same stochastic target against its own baseline, ${CASES} cases × ${REPETITIONS} repetitions, is flagged < 5% of the time`, () => {
  const aa = simulateRegressionGate({ cases: CASES, repetitions: REPETITIONS, seed: 42, drop: 0 })
  console.log(`[regression gate] ${describeSimulation(aa)}`)
  expect(aa.rate).toBeLessThan(0.05)
  // The raw-score gate the interval replaces fails about every other A/A run.
  expect(aa.naiveRate).toBeGreaterThan(0.3)
})

test(`power: a 10-point drop over ${CASES} cases is caught > 80% of the time`, () => {
  const power = simulateRegressionGate({ cases: CASES, repetitions: REPETITIONS, seed: 42, drop: 0.1 })
  console.log(`[regression gate] ${describeSimulation(power)}`)
  expect(power.rate).toBeGreaterThan(0.8)
})

test('the simulation is seeded: the same seed gives the same figures', () => {
  const a = simulateRegressionGate({ cases: 50, repetitions: 100, seed: 7, drop: 0.1 })
  const b = simulateRegressionGate({ cases: 50, repetitions: 100, seed: 7, drop: 0.1 })
  expect(a).toEqual(b)
})
