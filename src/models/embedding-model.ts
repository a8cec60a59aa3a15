// The one shape every embedding adapter has, whatever SDK is behind it; the embedding scorer is
// built on it, so the scorers never import a provider SDK.
import type { JsonObject, TokenUsage } from '../suite/types.js'
import type { ModelCallStats } from './chat-model.js'

export interface EmbeddingReply {
  /** One vector per text, in the order asked. */
  vectors: number[][]
  /** The model id the provider says answered, when it says. */
  model: string | undefined
  /** Input tokens the call spent (embeddings produce no output tokens). */
  usage: TokenUsage | undefined
}

export interface EmbeddingModel {
  /** The declared configuration (provider, model, base URL, dimensions); never a credential. */
  readonly config: JsonObject
  embed(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddingReply>
  stats(): ModelCallStats
}
