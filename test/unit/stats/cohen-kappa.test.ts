// Cohen's kappa (ADR 0350) against published worked examples and against a second computation written
// differently (the 2 × 2 closed form from the four counts), and its interval's resampling: fixed by
// the seed, around the estimate, with a case labelled twice resampled as one answer. Its coverage is
// measured by simulation in bench (figure 17), not asserted here.
import { describe, expect, test } from 'vitest'
import { cohenKappa, kappaOfTable, type LabelPair } from '../../../src/stats/cohen-kappa.js'
import { seededRandom } from '../../../src/stats/prng.js'

/** The 2 × 2 closed form: κ = 2(ad − bc) / ((a + b)(b + d) + (a + c)(c + d)). */
function closedForm(a: number, b: number, c: number, d: number): number {
  return (2 * (a * d - b * c)) / ((a + b) * (b + d) + (a + c) * (c + d))
}

/** Label pairs from counts: a = both pass, b = judge pass / person fail, c = judge fail / person pass, d = both fail. */
function pairsOf(a: number, b: number, c: number, d: number): LabelPair[] {
  const out: LabelPair[] = []
  const add = (n: number, judge: boolean, human: boolean) => {
    for (let i = 0; i < n; i++) out.push({ unit: `u${out.length}`, judge, human })
  }
  add(a, true, true)
  add(b, true, false)
  add(c, false, true)
  add(d, false, false)
  return out
}

describe('kappa on published tables', () => {
  test('two readers of 50 grant proposals (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no): p_o 0.70, p_e 0.50, kappa 0.40', () => {
    expect(
      kappaOfTable([
        [20, 5],
        [10, 15],
      ]),
    ).toBeCloseTo(0.4, 12)
    const k = cohenKappa(pairsOf(20, 5, 10, 15))
    expect(k.kappa).toBeCloseTo(0.4, 12)
    expect(k.observed).toBeCloseTo(0.7, 12)
    expect(k.labels).toBe(50)
  })

  test('the same 60% agreement gives kappa 0.1304 or 0.2593 by the marginals (45/15/25/15 and 25/35/5/35 of 100)', () => {
    expect(
      kappaOfTable([
        [45, 15],
        [25, 15],
      ]),
    ).toBeCloseTo(0.1304, 4)
    expect(
      kappaOfTable([
        [25, 35],
        [5, 35],
      ]),
    ).toBeCloseTo(0.2593, 4)
  })

  test("Fleiss, Cohen and Everitt's three diagnoses of 100 patients (75/1/4, 5/4/1, 0/0/10): p_o 0.89, p_e 0.66, kappa 0.676", () => {
    expect(
      kappaOfTable([
        [75, 1, 4],
        [5, 4, 1],
        [0, 0, 10],
      ]),
    ).toBeCloseTo(0.23 / 0.34, 12)
    expect(
      kappaOfTable([
        [75, 1, 4],
        [5, 4, 1],
        [0, 0, 10],
      ])!.toFixed(3),
    ).toBe('0.676')
  })

  test('perfect agreement is 1, agreement at chance 0, systematic disagreement −1; one verdict throughout has none', () => {
    expect(
      kappaOfTable([
        [7, 0],
        [0, 3],
      ]),
    ).toBe(1)
    expect(
      kappaOfTable([
        [25, 25],
        [25, 25],
      ]),
    ).toBe(0)
    expect(
      kappaOfTable([
        [0, 5],
        [5, 0],
      ]),
    ).toBe(-1)
    expect(
      kappaOfTable([
        [9, 0],
        [0, 0],
      ]),
    ).toBeNull()
    expect(cohenKappa([]).kappa).toBeNull()
  })
})

describe('kappa against the closed form on random tables', () => {
  test('500 random 2 × 2 tables agree with the closed form to 1e-12 (the first 40 counted from label pairs)', () => {
    const random = seededRandom(7)
    let checked = 0
    for (let i = 0; i < 500; i++) {
      const [a, b, c, d] = [0, 0, 0, 0].map(() => Math.floor(random() * 40))
      const expected = closedForm(a!, b!, c!, d!)
      const k =
        i < 40
          ? cohenKappa(pairsOf(a!, b!, c!, d!)).kappa
          : kappaOfTable([
              [a!, b!],
              [c!, d!],
            ])
      if (!Number.isFinite(expected)) {
        expect(k).toBeNull()
        continue
      }
      expect(k).toBeCloseTo(expected, 12)
      checked++
    }
    expect(checked).toBeGreaterThan(450)
  })
})

describe('the interval', () => {
  test('is the same on every call (fixed seed), lies within [−1, 1] and holds the estimate', () => {
    const pairs = pairsOf(20, 5, 10, 15)
    const one = cohenKappa(pairs)
    const two = cohenKappa([...pairs].reverse().map((p, i) => ({ ...p, unit: pairs[pairs.length - 1 - i]!.unit })))
    expect(one.ci95).not.toBeNull()
    expect(one.ci95!.low).toBeGreaterThanOrEqual(-1)
    expect(one.ci95!.high).toBeLessThanOrEqual(1)
    expect(one.ci95!.low).toBeLessThan(0.4)
    expect(one.ci95!.high).toBeGreaterThan(0.4)
    expect(cohenKappa(pairs).ci95).toEqual(one.ci95)
    expect(two.kappa).toBeCloseTo(one.kappa!, 12)
  })

  test('narrows as labels grow: 10 times the labels, about a third of the width', () => {
    const small = cohenKappa(pairsOf(20, 5, 10, 15)).ci95!
    const large = cohenKappa(pairsOf(200, 50, 100, 150)).ci95!
    const ratio = (large.high - large.low) / (small.high - small.low)
    expect(ratio).toBeGreaterThan(0.2)
    expect(ratio).toBeLessThan(0.45)
  })

  test('labels of one answer resample together: two people on each of 25 answers give a wider interval than 50 answers once', () => {
    const once = pairsOf(20, 5, 10, 15)
    const twice = pairsOf(10, 2, 5, 8).flatMap((p) => [p, { ...p }])
    expect(cohenKappa(twice).units).toBe(25)
    expect(cohenKappa(twice).labels).toBe(50)
    const w = (k: ReturnType<typeof cohenKappa>) => k.ci95!.high - k.ci95!.low
    expect(w(cohenKappa(twice))).toBeGreaterThan(w(cohenKappa(once.slice(0, 50))) * 1.2)
  })

  test('one labelled answer has no interval', () => {
    expect(
      cohenKappa([
        { unit: 'a', judge: true, human: true },
        { unit: 'a', judge: false, human: false },
      ]).ci95,
    ).toBeNull()
  })
})
