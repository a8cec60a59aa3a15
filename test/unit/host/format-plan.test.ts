// Issue 23 item 20: `digline plan` printed `minAgreement 0.6666666666666666`; it says the share as a
// person wrote it, with the passes it asks for.
import { expect, test } from 'vitest'
import { formatPlan } from '../../../src/host/plan/format-plan.js'
import type { Plan } from '../../../src/host/plan/plan.js'

const row = { gate: 'verdicts' as const, samples: 3, cases: 40, calls: 120, power: 0.8, rechecked_power: 0.81, false_alarm: 0.02, closed_form: 38 }
const plan = (minAgreement: number, samples: number): Plan => ({
  suite: 'triage',
  baseline: '20261129T223956123456Z-3f9a0c1b2d4e',
  config_hash: '3f9a0c1b2d4e',
  seed: 1,
  repetitions: 100,
  max_cases: 5000,
  detect: 0.1,
  power: 0.8,
  tolerance: 0.05,
  evidence: { runs: 1, cases: 40, samples, min_agreement: minAgreement, pass_rate: 0.9, gate_on: 'verdicts', spread: { mean: 0.9, concentration: 4.5, identified: true } },
  current: { ...row, detectable: 0.12, detectable_closed_form: 0.11 },
  options: [row],
  amount: { gate: 'cost_per_case', cases: 40, tolerance: 0.1, detectable_rise: null, power: null, false_alarm: null, unmeasured: 'no prices' },
  clusters: null,
})

test.each([
  [2 / 3, 3, 'minAgreement 0.667 (2 of 3 samples)'],
  [1, 5, 'minAgreement 1 (5 of 5 samples)'],
  [0.7, 10, 'minAgreement 0.7 (7 of 10 samples)'],
])('minAgreement %s of %i samples reads %s', (share, samples, words) => {
  const text = formatPlan(plan(share, samples))
  expect(text).toContain(words)
  expect(text).not.toMatch(/\d\.\d{4,}/)
})
