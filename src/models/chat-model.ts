// The one shape every model adapter has, whatever SDK is behind it. A chat target and an LLM judge
// are both built on it, so the core (scorers, driver) never imports a provider SDK.
import type { JsonObject, TokenUsage } from '../suite/types.js'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** Asks for a JSON reply that matches a JSON Schema (structured output or JSON mode, as the adapter can). */
export interface JsonReplyFormat {
  name: string
  schema: JsonObject
}

export interface ChatRequest {
  messages: readonly ChatMessage[]
  json?: JsonReplyFormat
  signal?: AbortSignal
}

export interface ChatReply {
  text: string
  /** The model id the provider says answered (the observed identity). */
  model: string | undefined
  usage: TokenUsage | undefined
}

/** What one adapter has done so far in this process; counts, never contents. */
export interface ModelCallStats {
  /** complete() calls. */
  calls: number
  /** HTTP requests, retries included. */
  attempts: number
  /** Attempts that failed and were tried again, by reason (429, 5xx, network, timeout). */
  retried: Record<string, number>
  /** Calls that still failed when the retry ceiling was reached. */
  gaveUp: number
  /** Calls that failed with an error that is not retried (a 400, a 401). */
  failed: number
}

export interface ChatModel {
  /**
   * The declared configuration: provider, model, base URL, sampling parameters. It becomes the
   * target config or part of a judge's config; it never holds a credential.
   */
  readonly config: JsonObject
  complete(request: ChatRequest): Promise<ChatReply>
  stats(): ModelCallStats
}
