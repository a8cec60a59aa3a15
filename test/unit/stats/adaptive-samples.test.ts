// Adaptive samples' stopping rule (ADR 0360) checked against an independent computation: for every
// sequence of sample passes, the case must stop at the first sample (at or after min) after which
// every way the remaining samples up to max could come out gives the same fixed-max verdict, and its
// verdict must be that verdict. The expected samples are checked by summing over every sequence.
import { describe, expect, test } from 'vitest'
import { expectedSamples, samplingStopOf, type SamplingBounds } from '../../../src/stats/sampling-stop.js'

/** The fixed-max verdict of a full sequence of `max` passes, as bits: at least `required` ones. */
const popcount = (bits: number): number => {
  let n = 0
  for (let b = bits; b !== 0; b >>>= 1) n += b & 1
  return n
}

/** Sequence `bits` (bit i = sample i passed) of length max. */
const passesOf = (bits: number, length: number): boolean[] => Array.from({ length }, (_, i) => ((bits >>> i) & 1) === 1)

/** Independently: the smallest n ≥ min whose prefix fixes the verdict of every completion to max samples. */
function bruteForceStop(bits: number, min: number, max: number, required: number): number {
  for (let n = min; n < max; n++) {
    const prefix = bits & ((1 << n) - 1)
    const verdicts = new Set<boolean>()
    for (let rest = 0; rest < 1 << (max - n); rest++) verdicts.add(popcount(prefix | (rest << n)) >= required)
    if (verdicts.size === 1) return n
  }
  return max
}

const CONFIGS: SamplingBounds[] = []
for (const max of [2, 3, 5, 7, 9]) for (let min = 1; min < max; min++) for (let required = 0; required <= max; required++) CONFIGS.push({ min, max, required })

describe('the stopping rule stops where the verdict at max is first settled', () => {
  test(`every sequence of every (min, max ≤ 9, required) configuration: ${CONFIGS.length} configurations`, () => {
    let sequences = 0
    const wrong: string[] = []
    for (const bounds of CONFIGS) {
      for (let bits = 0; bits < 1 << bounds.max; bits++) {
        const passes = passesOf(bits, bounds.max)
        const stop = samplingStopOf(passes, bounds)
        const expected = bruteForceStop(bits, bounds.min, bounds.max, bounds.required)
        // The verdict from the samples taken must be the verdict the full max samples give.
        const passedTaken = passes.slice(0, stop?.taken).filter(Boolean).length
        if (stop?.taken !== expected || stop.stopped !== (expected === bounds.max ? 'max' : 'settled') || passedTaken >= bounds.required !== popcount(bits) >= bounds.required)
          wrong.push(`${JSON.stringify(bounds)} ${passes.map((p) => (p ? 'P' : 'F')).join('')}: ${JSON.stringify(stop)}, expected ${expected}`)
        sequences++
      }
    }
    expect(wrong.slice(0, 5)).toEqual([])
    expect(sequences).toBeGreaterThan(10_000)
  })

  test('fixed tables', () => {
    const P = true
    const F = false
    // min 2, max 5, all five must pass: a failure settles it, but never before min.
    const all = { min: 2, max: 5, required: 5 }
    expect(samplingStopOf([F, P, P, P, P], all)).toEqual({ taken: 2, stopped: 'settled' })
    expect(samplingStopOf([P, F, P, P, P], all)).toEqual({ taken: 2, stopped: 'settled' })
    expect(samplingStopOf([P, P, P, F, P], all)).toEqual({ taken: 4, stopped: 'settled' })
    expect(samplingStopOf([P, P, P, P, P], all)).toEqual({ taken: 5, stopped: 'max' })
    // min 2, max 5, 3 of 5: three passes or three failures settle it.
    const most = { min: 2, max: 5, required: 3 }
    expect(samplingStopOf([P, P, P, F, F], most)).toEqual({ taken: 3, stopped: 'settled' })
    expect(samplingStopOf([F, F, F, P, P], most)).toEqual({ taken: 3, stopped: 'settled' })
    expect(samplingStopOf([P, F, P, F, P], most)).toEqual({ taken: 5, stopped: 'max' })
    expect(samplingStopOf([P, F, F, P, F], most)).toEqual({ taken: 5, stopped: 'max' })
    expect(samplingStopOf([P, F, F, F, P], most)).toEqual({ taken: 4, stopped: 'settled' })
    // min 3: three samples whatever they say.
    expect(samplingStopOf([P, P, P, P, P], { min: 3, max: 5, required: 2 })).toEqual({ taken: 3, stopped: 'settled' })
    // A sequence the rule would take more of.
    expect(samplingStopOf([P, F], most)).toBeUndefined()
  })
})

describe('expected samples', () => {
  test('equal the mean stop over every sequence, weighted by its chance', () => {
    for (const bounds of CONFIGS.filter((_, i) => i % 7 === 0)) {
      for (const q of [0, 0.1, 0.5, 0.83, 1]) {
        let mean = 0
        for (let bits = 0; bits < 1 << bounds.max; bits++) {
          const k = popcount(bits)
          const chance = q ** k * (1 - q) ** (bounds.max - k)
          mean += chance * bruteForceStop(bits, bounds.min, bounds.max, bounds.required)
        }
        expect(expectedSamples(q, bounds)).toBeCloseTo(mean, 10)
      }
    }
  })

  test('a case that always passes takes max under minAgreement 1; one that always fails takes min', () => {
    expect(expectedSamples(1, { min: 2, max: 6, required: 6 })).toBe(6)
    expect(expectedSamples(0, { min: 2, max: 6, required: 6 })).toBe(2)
    // Under 4 of 6, a steady case of either kind stops at 4.
    expect(expectedSamples(1, { min: 2, max: 6, required: 4 })).toBe(4)
    expect(expectedSamples(0, { min: 2, max: 6, required: 4 })).toBe(3)
  })
})
