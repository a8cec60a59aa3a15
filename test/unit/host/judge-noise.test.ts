// Judge noise (ADR 0265): K judgements of the same answers; the variance split into the judge's part
// and the target's, checked against the mean squares of a nested ANOVA computed here independently,
// recovered from scripted noise within its interval, and the verdicts the judge flips named.
import { describe, expect, it } from 'vitest'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { formatJudgeNoise, judgeNoise } from '../../../src/host/judge/judge-noise.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { makeRun } from '../../helpers/make-run.js'

/** K documents of C cases × S samples whose sample scores are y[c][s][k]; a sample passes at 0.5, a case when all its samples pass. */
function replays(y: number[][][]): RunDocument[] {
  const K = y[0]![0]!.length
  return Array.from({ length: K }, (_, k) => {
    const doc = makeRun({ results: 0 })
    doc.rules = { ...doc.rules, samples: y[0]!.length }
    doc.results = y.map((rows, c): CaseResult => {
      const samples = rows.map((row) => ({ pass: row[k]! >= 0.5, score: row[k]!, scorers: [{ name: 'judge', pass: row[k]! >= 0.5, score: row[k]!, reason: null }] }))
      const passed = samples.filter((s) => s.pass).length
      const verdict = passed === samples.length ? 'pass' : 'fail'
      return { case_id: `c${c}`, verdict, score: samples.reduce((a, s) => a + s.score, 0) / samples.length, passed_samples: passed, reason: null, error: null, samples }
    })
    return doc
  })
}

/** Mean squares of the nested ANOVA: within answers (judge), and between answers of a case. */
function anova(y: number[][][]): { judge: number; target: number } {
  const C = y.length
  const S = y[0]!.length
  const K = y[0]![0]!.length
  let within = 0
  let between = 0
  for (const rows of y) {
    const means = rows.map((r) => r.reduce((a, b) => a + b, 0) / K)
    const caseMean = means.reduce((a, b) => a + b, 0) / S
    rows.forEach((r, s) => r.forEach((v) => (within += (v - means[s]!) ** 2)))
    means.forEach((m) => (between += K * (m - caseMean) ** 2))
  }
  const msWithin = within / (C * S * (K - 1))
  const msBetween = between / (C * (S - 1))
  return { judge: msWithin, target: Math.max(0, (msBetween - msWithin) / K) }
}

function scripted(C: number, S: number, K: number, targetSd: number, judgeSd: number, seed: number): number[][][] {
  const random = seededRandom(seed)
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const clamp = (x: number) => Math.min(1, Math.max(0, x))
  return Array.from({ length: C }, () => {
    const mu = 0.3 + 0.4 * random()
    return Array.from({ length: S }, () => {
      const answer = mu + targetSd * normal()
      return Array.from({ length: K }, () => clamp(answer + judgeSd * normal()))
    })
  })
}

describe('judgeNoise', () => {
  it('equals the nested ANOVA on a fixed table', () => {
    const y = [
      [
        [0.8, 0.6, 0.7],
        [0.2, 0.4, 0.3],
      ],
      [
        [0.5, 0.5, 0.5],
        [0.9, 0.7, 1],
      ],
      [
        [0.1, 0.3, 0.2],
        [0.6, 0.6, 0.9],
      ],
    ]
    const noise = judgeNoise(replays(y))
    const expected = anova(y)
    expect(noise.judge_variance).toBeCloseTo(expected.judge, 12)
    expect(noise.target_variance).toBeCloseTo(expected.target, 12)
    expect(noise.judge_share!.share).toBeCloseTo(expected.judge / (expected.judge + expected.target), 12)
    expect(noise).toMatchObject({ judgements: 3, samples: 2, cases: 3 })
  })

  it.each([
    [0.1, 0.1, 0.5],
    [0.05, 0.15, 0.9],
    [0.15, 0.05, 0.1],
  ])('recovers scripted noise (target sd %s, judge sd %s: judge share %s) within its interval', (targetSd, judgeSd, share) => {
    const noise = judgeNoise(replays(scripted(60, 3, 3, targetSd, judgeSd, 7)))
    const { low, high } = noise.judge_share!.ci95!
    expect(low).toBeLessThanOrEqual(share)
    expect(high).toBeGreaterThanOrEqual(share)
    expect(high - low).toBeLessThan(0.35)
  })

  it('names the cases whose verdict the judge flips and the answers it passes and fails; warns above the allowed share', () => {
    const y = [
      [
        [0.9, 0.9],
        [0.8, 0.8],
      ], // steady pass
      [
        [0.6, 0.4],
        [0.9, 0.9],
      ], // sample 0 flips: the case verdict flips
      [
        [0.1, 0.2],
        [0.3, 0.1],
      ], // steady fail
    ]
    const noise = judgeNoise(replays(y), 0.2)
    expect(noise.flipped_by_judge).toEqual(['c1'])
    expect(noise.flipped_samples).toEqual([{ case_id: 'c1', sample: 0 }])
    expect(noise.warning).toMatch(/^the judge makes \d+% of the score's noise, above the 20% allowed/)
    expect(formatJudgeNoise(noise).join('\n')).toContain('verdicts the judge flips (1): c1')
  })

  it('with one sample per case the target part is not estimated; errored cases are left out', () => {
    const docs = replays([[[0.2, 0.8]], [[0.5, 0.5]]])
    docs[1]!.results[1] = { ...docs[1]!.results[1]!, verdict: 'error', score: null, error: { cause: 'scorer', message: 'x' }, samples: [] }
    const noise = judgeNoise(docs)
    expect(noise).toMatchObject({ cases: 1, target_variance: null, judge_share: null })
    expect(noise.judge_variance).toBeCloseTo(0.18, 12)
    expect(formatJudgeNoise(noise)[1]).toContain('target variance n/a (one sample per case')
    expect(() => judgeNoise(docs.slice(0, 1))).toThrow(/at least two/)
  })
})
