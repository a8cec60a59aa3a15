// Picks one option the way a language model decodes at temperature T: softmax(score / (T × scale))
// and a draw from it. T = 0 is greedy (always the best score); higher T flattens the distribution
// so that close calls go either way from one sample to the next.

export interface Draw {
  index: number
  /** The probability of every option, in input order. */
  probabilities: number[]
}

/**
 * @param scores one score per option (higher is better)
 * @param temperature 0 for greedy decoding
 * @param scale how many score units make one logit at T = 1
 * @param random a uniform [0, 1) source
 */
export function sampleWithTemperature(scores: readonly number[], temperature: number, scale: number, random: () => number): Draw {
  if (scores.length === 0) throw new Error('nothing to sample from')
  const best = scores.reduce((bi, s, i) => (s > scores[bi]! ? i : bi), 0)
  if (temperature <= 0) return { index: best, probabilities: scores.map((_, i) => (i === best ? 1 : 0)) }
  const top = scores[best]!
  const weights = scores.map((s) => Math.exp((s - top) / (temperature * scale)))
  const total = weights.reduce((a, b) => a + b, 0)
  const probabilities = weights.map((w) => w / total)
  let r = random()
  for (let i = 0; i < probabilities.length; i++) {
    r -= probabilities[i]!
    if (r < 0) return { index: i, probabilities }
  }
  return { index: probabilities.length - 1, probabilities }
}
