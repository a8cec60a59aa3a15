// Any AI SDK embedding model (`ai@6` with a provider, e.g. createOpenAI(…).embedding('…')), called
// with embedMany and the SDK's own retries off: digline retries, caps and counts every attempt.
import type { EmbeddingModel as AiEmbeddingModel } from 'ai'
import type { JsonObject } from '../suite/types.js'
import { classifyAiError } from './ai-sdk-chat.js'
import type { EmbeddingModel, EmbeddingReply } from './embedding-model.js'
import { callWithRetries, newStats } from './model-call.js'
import { callOptions, invalid, type CallOptions } from './model-options.js'
import { requirePeer } from './peer.js'
import { redactor } from './redaction.js'

/** What a provider returns for an embedding model, written out so that these types do not need `ai`. */
export type AiSdkEmbeddingModel = string | { readonly specificationVersion: string; readonly provider: string; readonly modelId: string }

export function aiSdkEmbeddings(model: AiSdkEmbeddingModel, options: CallOptions = {}): EmbeddingModel {
  const owner = 'aiSdkEmbeddings()'
  const m = model as { provider?: unknown; modelId?: unknown } | string | null
  const id =
    typeof m === 'string' && m !== ''
      ? { provider: 'gateway', modelId: m }
      : m !== null && typeof m === 'object' && typeof m.provider === 'string' && typeof m.modelId === 'string' && m.modelId !== ''
        ? { provider: m.provider, modelId: m.modelId }
        : undefined
  if (id === undefined) throw invalid(owner, 'model', 'must be an AI SDK embedding model, e.g. createOpenAI({ … }).embedding("text-embedding-3-small")')
  const calls = callOptions(options, owner)
  requirePeer('ai', owner)
  const config: JsonObject = { provider: id.provider, model: id.modelId }
  const stats = newStats()
  const settings = {
    owner: `${id.provider} embeddings ${JSON.stringify(id.modelId)}`,
    pool: options.pool ?? id.provider,
    maxInFlight: calls.maxInFlight,
    policy: calls.policy,
    timeoutMs: calls.timeoutMs,
    redact: redactor([]),
    stats,
  }
  let loaded: Promise<typeof import('ai')> | undefined
  return {
    config,
    stats: () => ({ ...stats, retried: { ...stats.retried } }),
    async embed(texts, signal): Promise<EmbeddingReply> {
      const ai = await (loaded ??= import('ai'))
      const result = await callWithRetries({ ...settings, classify: (error) => classifyAiError(ai, error) }, signal, (s) =>
        ai.embedMany({ model: model as AiEmbeddingModel, values: [...texts], maxRetries: 0, abortSignal: s }),
      )
      const body = result.responses?.[0]?.body as { model?: unknown } | undefined
      const tokens = result.usage?.tokens
      return {
        vectors: result.embeddings.map((e) => [...e]),
        model: typeof body?.model === 'string' && body.model !== '' ? body.model : undefined,
        usage: Number.isInteger(tokens) ? { input_tokens: tokens, output_tokens: 0 } : undefined,
      }
    },
  }
}
