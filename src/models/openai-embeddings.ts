// Embeddings from any OpenAI-compatible /embeddings endpoint through the `openai` SDK, with its own
// retries off: digline retries, caps and counts every attempt, as for chat (model-call.ts).
import type { JsonObject } from '../suite/types.js'
import type { EmbeddingModel, EmbeddingReply } from './embedding-model.js'
import { callWithRetries, newStats } from './model-call.js'
import { callOptions, invalid, requireModelId, type CallOptions } from './model-options.js'
import { classifyOpenAIError, openaiEndpoint } from './openai-chat.js'
import { redactor } from './redaction.js'

export interface OpenAIEmbeddingOptions extends CallOptions {
  /** The embedding model, e.g. "text-embedding-3-small" or "nomic-embed-text". */
  model: string
  /** Up to and including /v1 (default: OPENAI_BASE_URL from the environment, else OpenAI's). */
  baseURL?: string
  /** The key; by default read from the environment variable `apiKeyEnv`. Never recorded anywhere. */
  apiKey?: string
  apiKeyEnv?: string
  /** Ask for vectors of this length (models that support it); part of the config. */
  dimensions?: number
}

export function openaiEmbeddings(options: OpenAIEmbeddingOptions, env: NodeJS.ProcessEnv = process.env): EmbeddingModel {
  const owner = 'openaiEmbeddings()'
  if (options === null || typeof options !== 'object') throw invalid(owner, 'options', 'must be { model, baseURL?, apiKey?, … }')
  const model = requireModelId(options.model, owner)
  const calls = callOptions(options, owner)
  const { dimensions } = options
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1)) throw invalid(owner, 'dimensions', 'must be an integer ≥ 1')
  const { base, apiKey, load } = openaiEndpoint(options, env, owner, model, calls.timeoutMs)
  const config: JsonObject = { provider: 'openai-compatible', model, base_url: base, ...(dimensions === undefined ? {} : { dimensions }) }
  const stats = newStats()
  const settings = {
    owner: `openai-compatible embeddings ${JSON.stringify(model)} at ${base}`,
    pool: options.pool ?? `openai-compatible ${base}`,
    maxInFlight: calls.maxInFlight,
    policy: calls.policy,
    timeoutMs: calls.timeoutMs,
    redact: redactor([apiKey]),
    stats,
  }
  return {
    config,
    stats: () => ({ ...stats, retried: { ...stats.retried } }),
    async embed(texts, signal): Promise<EmbeddingReply> {
      const { mod, client } = await load()
      const body = { model, input: [...texts], encoding_format: 'float' as const, ...(dimensions === undefined ? {} : { dimensions }) }
      const response = await callWithRetries({ ...settings, classify: (error) => classifyOpenAIError(mod, error) }, signal, (s) => client.embeddings.create(body, { signal: s }))
      const vectors = [...(response.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding)
      if (vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v) || v.some((x) => typeof x !== 'number'))) {
        throw new Error(settings.redact(`${settings.owner} answered ${vectors.length} vectors of numbers for ${texts.length} texts`))
      }
      const tokens = response.usage?.prompt_tokens
      return {
        vectors,
        model: typeof response.model === 'string' && response.model !== '' ? response.model : undefined,
        usage: Number.isInteger(tokens) ? { input_tokens: tokens, output_tokens: 0 } : undefined,
      }
    },
  }
}
