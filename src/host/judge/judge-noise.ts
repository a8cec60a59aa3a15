// Judge noise (issue 27 item 2, ADR 0265): the same recorded answers judged K times (K replays of
// one run), and the variance of the sample scores split into the judge's part (judgements of one
// answer disagree) and the target's part (answers of one case disagree beyond what the judge adds).
// A nested random-effects decomposition over cases × samples × judgements; its interval comes from
// resampling cases.
import type { CaseResult, RunDocument } from '../../document/schema.js'
import { seededRandom } from '../../stats/prng.js'
import type { Store } from '../../store/contract.js'

export interface NoiseShare {
  /** The judge's share of the within-case variance, 0..1. */
  share: number
  /** 95% bootstrap interval over cases; null with fewer than 2 cases. */
  ci95: { low: number; high: number } | null
}

export interface JudgeNoise {
  /** How many judgements of each answer (the replays compared). */
  judgements: number
  samples: number
  /** Cases judged in every replay without an error: the decomposition's cases. */
  cases: number
  /** Variance of one answer's score between judgements. */
  judge_variance: number
  /** Variance of a case's answers beyond the judge's; null with one sample per case. */
  target_variance: number | null
  /** The judge's share of the two; null when there is no target estimate or no variance at all. */
  judge_share: NoiseShare | null
  /** Cases whose verdict differs between the judgements of the same answers. */
  flipped_by_judge: string[]
  /** Answers (case, sample from 0) whose pass differs between judgements. */
  flipped_samples: { case_id: string; sample: number }[]
  /** Above the share the caller names: the judge adds more of the noise than allowed. */
  warning: string | null
}

const BOOTSTRAP = 2000
const SEED = 0x27

/** Scores by case, then sample, then judgement; only cases judged in every replay. */
function scoreTable(replays: readonly RunDocument[]): { ids: string[]; y: number[][][]; verdicts: CaseResult['verdict'][][]; passes: boolean[][][] } {
  const byCase = replays.map((doc) => new Map(doc.results.map((r) => [r.case_id, r])))
  const ids = replays[0]!.results.map((r) => r.case_id).filter((id) => byCase.every((m) => m.get(id) !== undefined && m.get(id)!.verdict !== 'error'))
  const y: number[][][] = []
  const verdicts: CaseResult['verdict'][][] = []
  const passes: boolean[][][] = []
  for (const id of ids) {
    const results = byCase.map((m) => m.get(id)!)
    const samples = Math.min(...results.map((r) => r.samples.length))
    y.push(Array.from({ length: samples }, (_, s) => results.map((r) => r.samples[s]!.score)))
    passes.push(Array.from({ length: samples }, (_, s) => results.map((r) => r.samples[s]!.pass)))
    verdicts.push(results.map((r) => r.verdict))
  }
  return { ids, y, verdicts, passes }
}

function variance(values: readonly number[]): number {
  if (values.length < 2) return 0
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)
}

/** The two variances over the given cases (indices into the table). */
function components(y: readonly number[][][], cases: readonly number[], judgements: number): { judge: number; target: number | null } {
  let judgeSum = 0
  let answers = 0
  let betweenSum = 0
  let withSamples = 0
  for (const c of cases) {
    const rows = y[c]!
    for (const row of rows) {
      judgeSum += variance(row)
      answers++
    }
    if (rows.length >= 2) {
      betweenSum += variance(rows.map((row) => row.reduce((a, b) => a + b, 0) / row.length))
      withSamples++
    }
  }
  const judge = answers === 0 ? 0 : judgeSum / answers
  // E[var of the answer means] = target variance + judge variance / K.
  const target = withSamples === 0 ? null : Math.max(0, betweenSum / withSamples - judge / judgements)
  return { judge, target }
}

const shareOf = (v: { judge: number; target: number | null }): number | null => (v.target === null || v.judge + v.target === 0 ? null : v.judge / (v.judge + v.target))

/**
 * The noise of K replays of one run (the same answers, judged K times). `maxShare`, when given,
 * turns a judge share above it into a warning.
 */
export function judgeNoise(replays: readonly RunDocument[], maxShare?: number): JudgeNoise {
  if (replays.length < 2) throw new Error('judge noise needs at least two judgements of the same answers')
  const judgements = replays.length
  const { ids, y, verdicts, passes } = scoreTable(replays)
  const all = ids.map((_, i) => i)
  const point = components(y, all, judgements)
  const share = shareOf(point)
  let ci95: NoiseShare['ci95'] = null
  if (share !== null && ids.length >= 2) {
    const random = seededRandom(SEED)
    const draws: number[] = []
    for (let b = 0; b < BOOTSTRAP; b++) {
      const drawn = all.map(() => Math.floor(random() * all.length))
      const s = shareOf(components(y, drawn, judgements))
      if (s !== null) draws.push(s)
    }
    draws.sort((a, b) => a - b)
    if (draws.length > 0) ci95 = { low: draws[Math.floor(0.025 * (draws.length - 1))]!, high: draws[Math.ceil(0.975 * (draws.length - 1))]! }
  }
  const flippedSamples = ids.flatMap((id, c) => passes[c]!.flatMap((row, sample) => (row.some((p) => p !== row[0]) ? [{ case_id: id, sample }] : [])))
  const judgeShare = share === null ? null : { share, ci95 }
  const warning =
    maxShare !== undefined && share !== null && share > maxShare
      ? `the judge makes ${(share * 100).toFixed(0)}% of the score's noise, above the ${(maxShare * 100).toFixed(0)}% allowed: its verdicts move as much as the target's answers`
      : null
  return {
    judgements,
    samples: replays[0]!.rules.samples,
    cases: ids.length,
    judge_variance: point.judge,
    target_variance: point.target,
    judge_share: judgeShare,
    flipped_by_judge: ids.filter((_, c) => verdicts[c]!.some((v) => v !== verdicts[c]![0])),
    flipped_samples: flippedSamples,
    warning,
  }
}

/** The noise in lines for the terminal. */
export function formatJudgeNoise(noise: JudgeNoise): string[] {
  const share = noise.judge_share
  const lines = [
    `judge noise over ${noise.cases} case(s) × ${noise.samples} sample(s) × ${noise.judgements} judgements:`,
    `  judge variance ${noise.judge_variance.toFixed(4)}, target variance ${noise.target_variance === null ? 'n/a (one sample per case: run with samples ≥ 2 to split it)' : noise.target_variance.toFixed(4)}`,
  ]
  if (share !== null) {
    const ci = share.ci95 === null ? '' : `, 95% interval [${(share.ci95.low * 100).toFixed(0)}%, ${(share.ci95.high * 100).toFixed(0)}%]`
    lines.push(`  the judge's share of the noise: ${(share.share * 100).toFixed(0)}%${ci}`)
  }
  lines.push(
    `  verdicts the judge flips (${noise.flipped_by_judge.length})${noise.flipped_by_judge.length === 0 ? '' : `: ${noise.flipped_by_judge.slice(0, 20).join(', ')}${noise.flipped_by_judge.length > 20 ? ' …' : ''}`}`,
  )
  lines.push(`  answers the judge passes and fails: ${noise.flipped_samples.length}`)
  if (noise.warning !== null) lines.push(`  warning: ${noise.warning}`)
  return lines
}

/** The noise of the replays filed under `into` by their keys, as judgeNoise measures it. */
export async function judgeNoiseOfReplays(store: Pick<Store, 'readRun'>, tenant: string, into: string, keys: readonly string[], maxShare?: number): Promise<JudgeNoise> {
  const replays: RunDocument[] = []
  for (const key of keys) replays.push(await store.readRun(tenant, into, key))
  return judgeNoise(replays, maxShare)
}
