import type { EmbeddingModel } from '../models/embedding-model.js'
import { invalid } from '../models/model-options.js'
import type { ScoreResult, ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { figure, unitOption } from './judge-call.js'
import { block } from './judge-prompt.js'

export interface EmbeddingSimilarityOptions {
  /** The embedding model: openaiEmbeddings(…) or aiSdkEmbeddings(…) from 'digline/models'. */
  model: EmbeddingModel
  /** The lowest cosine similarity that passes (default 0.8). */
  passAt?: number
  /** Score one field of a structured answer; in the config. */
  path?: string
  /** The scorer's name in results (default "embedding_similarity"). */
  name?: string
}

/** Cosine similarity of two vectors of the same length; 0 when either has no length. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}

/**
 * The cosine similarity of the output's embedding and the expected value's, from one call that
 * embeds both (its tokens are the judge usage, priced like a judge's); a negative cosine scores 0.
 */
export function embeddingSimilarity(options: EmbeddingSimilarityOptions): ScorerObject {
  const owner = 'scorers.embeddingSimilarity()'
  const model = options?.model
  if (model === null || typeof model !== 'object' || typeof model.embed !== 'function')
    throw invalid(owner, 'model', "must come from openaiEmbeddings() or aiSdkEmbeddings() in 'digline/models'")
  const passAt = unitOption(options.passAt, 0.8, owner, 'passAt')
  const scorer: ScorerObject = {
    name: options.name ?? 'embedding_similarity',
    config: { model: model.config, pass_at: passAt, measure: 'cosine' },
    passAt,
    async score({ output, expected, signal }) {
      if (expected === undefined) throw new Error('the case declares no expected value to compare the embedding with')
      const reply = await model.embed([block(output), block(expected)], signal)
      const [a, b] = reply.vectors
      if (a === undefined || b === undefined || a.length !== b.length || a.length === 0) {
        throw new Error(`the embedding model answered vectors of lengths ${a?.length ?? 'none'} and ${b?.length ?? 'none'}, not two of one length`)
      }
      const score = Math.min(1, Math.max(0, cosine(a, b)))
      const pass = score >= passAt - 1e-12
      const result: ScoreResult = { pass, score, reason: `cosine similarity ${figure(score)}${pass ? '' : `, below pass_at ${figure(passAt)}`}` }
      if (reply.model !== undefined) result.model = reply.model
      if (reply.usage !== undefined) result.usage = reply.usage
      return result
    },
  }
  return withPath(scorer, options.path, owner)
}
