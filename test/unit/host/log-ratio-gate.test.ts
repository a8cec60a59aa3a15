// Issue 28, amounts: cost, tokens and latency are gated on the paired log-ratio with a t interval
// (ADR 0121), checked against the arithmetic done here by hand; the interval never leaves (−100%, ∞).
import { expect, test } from 'vitest'
import { judgeAmounts, logRatio } from '../../../src/host/judge/amount-gates.js'

test('the geometric mean of the per-case ratios, with mean(ln r) ± t(4)·sd/√5 back on the ratio scale', () => {
  const pairs: [number, number][] = [
    [100, 120],
    [10, 13],
    [1000, 1100],
    [50, 60],
    [5, 7],
  ]
  const logs = pairs.map(([b, r]) => Math.log(r / b))
  const mean = logs.reduce((s, x) => s + x, 0) / 5
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / 4)
  const t4 = 2.7764451051977987 // the 97.5% quantile of Student's t with 4 degrees of freedom
  const gate = judgeAmounts('tokens_per_case', pairs, 0.1)
  expect(gate.method).toBe('log-ratio')
  expect(gate.relative!.mean).toBeCloseTo(Math.exp(mean) - 1, 12)
  expect(gate.relative!.ci95!.low).toBeCloseTo(Math.exp(mean - (t4 * sd) / Math.sqrt(5)) - 1, 9)
  expect(gate.relative!.ci95!.high).toBeCloseTo(Math.exp(mean + (t4 * sd) / Math.sqrt(5)) - 1, 9)
  expect(gate.regressed).toBe(gate.relative!.ci95!.low > 0.1)
})

test('one huge case cannot drag the interval below −100% (the difference over the baseline mean said −286%)', () => {
  const pairs: [number, number][] = [
    [1, 0.5],
    [1, 0.5],
    [100, 1],
    [1, 0.5],
  ]
  const gate = judgeAmounts('cost_per_case', pairs, 0)
  expect(gate.relative!.ci95!.low).toBeGreaterThan(-1)
  expect(gate.relative!.mean).toBeLessThan(0)
  expect(gate.regressed).toBe(false)
})

test('a heavy-tailed suite with every case 25% dearer regresses: the case-to-case spread cancels in the ratio', () => {
  const sizes = [0.001, 0.5, 0.002, 3, 0.0001, 0.04, 0.7, 0.00002, 12, 0.01]
  const wobble = [1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1, 1.02, 0.98, 1]
  const gate = judgeAmounts(
    'cost_per_case',
    sizes.map((s, i): [number, number] => [s, s * 1.25 * wobble[i]!]),
    0.1,
  )
  expect(gate.regressed).toBe(true)
})

test('cases measuring zero on either side are left out of the ratio and said', () => {
  const gate = judgeAmounts(
    'latency_per_case',
    [
      [0, 5],
      [10, 11],
      [20, 22],
      [30, 33],
    ],
    0.5,
  )
  expect(gate.n).toBe(3)
  expect(gate.zero).toBe(1)
  expect(logRatio([[0, 0]])).toBeUndefined()
})
