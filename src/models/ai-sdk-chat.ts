// Any AI SDK language model (`ai@6` with an @ai-sdk/* provider) as a digline chat model, called with
// generateText and the SDK's own retries off: digline retries, caps and counts every attempt.
import type { LanguageModel } from 'ai'
import type { JsonObject } from '../suite/types.js'
import type { ChatModel, ChatReply, ChatRequest } from './chat-model.js'
import { callWithRetries, describeError, isNetworkError, newStats, statusFailure, type Failure } from './model-call.js'
import { redactor } from './redaction.js'
import { callOptions, invalid, samplingConfig, type CallOptions, type SamplingOptions } from './model-options.js'
import { requirePeer } from './peer.js'

export interface AiSdkModelOptions extends SamplingOptions, CallOptions {}

/**
 * An AI SDK language model: what a provider returns (e.g. createOpenAI(…).chat('gpt-4o-mini')), or a
 * gateway model id. Written out here so that this entry point's types do not need `ai` installed.
 */
export type AiSdkLanguageModel = string | { readonly specificationVersion: string; readonly provider: string; readonly modelId: string }

type AiModule = typeof import('ai')

/** How every call of an AI SDK adapter is retried, capped and counted (its pool is the provider's unless named). */
export function aiSdkCallSettings(provider: string, modelId: string, pool: string | undefined, calls: ReturnType<typeof callOptions>) {
  return {
    owner: `${provider} ${JSON.stringify(modelId)}`,
    pool: pool ?? provider,
    maxInFlight: calls.maxInFlight,
    policy: calls.policy,
    timeoutMs: calls.timeoutMs,
    redact: redactor([]),
    stats: newStats(),
  }
}

export function aiSdkModel(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): ChatModel {
  const owner = 'aiSdkModel()'
  const { provider, modelId } = identify(model, owner)
  const calls = callOptions(options, owner)
  const sampling = samplingConfig(options, owner)
  requirePeer('ai', owner)
  const config: JsonObject = { provider, model: modelId, ...sampling }
  const settings = aiSdkCallSettings(provider, modelId, options.pool, calls)
  const { stats } = settings
  let loaded: Promise<AiModule> | undefined

  return {
    config,
    stats: () => ({ ...stats, retried: { ...stats.retried } }),
    async complete(request: ChatRequest): Promise<ChatReply> {
      const ai = await (loaded ??= import('ai'))
      const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content)
      const messages = request.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }))
      const output = request.json === undefined ? undefined : ai.Output.object({ schema: ai.jsonSchema(request.json.schema), name: request.json.name })
      return callWithRetries({ ...settings, classify: (error) => classifyAiError(ai, error) }, request.signal, async (signal) => {
        try {
          const result = await ai.generateText({
            model: model as LanguageModel,
            ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
            messages,
            temperature: options.temperature,
            topP: options.topP,
            maxOutputTokens: options.maxTokens,
            seed: options.seed,
            stopSequences: options.stop,
            maxRetries: 0,
            abortSignal: signal,
            ...(output === undefined ? {} : { output }),
          })
          return { text: result.text, model: nonEmpty(result.response?.modelId), usage: tokens(result.usage) }
        } catch (error) {
          // An unparseable JSON reply is still a reply: the judge that asked for it says what is wrong.
          if (output !== undefined && ai.NoObjectGeneratedError.isInstance(error) && typeof error.text === 'string') {
            return { text: error.text, model: nonEmpty(error.response?.modelId), usage: tokens(error.usage) }
          }
          throw error
        }
      })
    },
  }
}

export function identify(model: AiSdkLanguageModel, owner: string): { provider: string; modelId: string } {
  if (typeof model === 'string' && model !== '') return { provider: 'gateway', modelId: model }
  const m = model as { provider?: unknown; modelId?: unknown } | null
  if (m === null || typeof m !== 'object' || typeof m.provider !== 'string' || typeof m.modelId !== 'string' || m.modelId === '') {
    throw invalid(owner, 'model', 'must be an AI SDK language model, e.g. createOpenAI({ … }).chat("gpt-4o-mini")')
  }
  return { provider: m.provider, modelId: m.modelId }
}

export function classifyAiError(ai: AiModule, error: unknown): Failure {
  if (ai.APICallError.isInstance(error)) {
    const status = error.statusCode
    if (typeof status === 'number') return statusFailure(status, (name) => headerOf(error.responseHeaders, name), `HTTP ${status}: ${error.message}`)
    if (error.isRetryable || isNetworkError(error)) return { retry: true, reason: 'network', message: describeError(error) }
    return { retry: false, message: describeError(error) }
  }
  if (isNetworkError(error)) return { retry: true, reason: 'network', message: `connection failed: ${describeError(error)}` }
  return { retry: false, message: describeError(error) }
}

function headerOf(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

export function tokens(usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): ChatReply['usage'] {
  const input = usage?.inputTokens
  const output = usage?.outputTokens
  return Number.isInteger(input) && Number.isInteger(output) ? { input_tokens: input!, output_tokens: output! } : undefined
}
