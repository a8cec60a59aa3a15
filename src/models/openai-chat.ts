// A chat model behind any OpenAI-compatible /chat/completions endpoint (OpenAI, Azure's v1 API,
// vLLM, Ollama, llama.cpp, OpenRouter…), called through the official `openai` SDK with its own
// retries off: digline retries, caps and counts every attempt itself.
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import { MissingApiKeyError } from './errors.js'
import type { JsonObject } from '../suite/types.js'
import type { ChatModel, ChatReply, ChatRequest, JsonReplyFormat, ModelCallStats } from './chat-model.js'
import { callWithRetries, describeError, isNetworkError, newStats, statusFailure, type CallSettings, type Failure } from './model-call.js'
import { redactor } from './redaction.js'
import { callOptions, invalid, requireModelId, samplingConfig, type CallOptions, type SamplingOptions } from './model-options.js'
import { requirePeer } from './peer.js'

export const OPENAI_BASE_URL = 'https://api.openai.com/v1'

export interface OpenAIChatOptions extends SamplingOptions, CallOptions {
  /** The model to ask for, e.g. "gpt-4o-mini" or "llama3.2". */
  model: string
  /** Up to and including /v1 (default: OPENAI_BASE_URL from the environment, else OpenAI's). */
  baseURL?: string
  /** The key; by default read from the environment variable `apiKeyEnv`. Never recorded anywhere. */
  apiKey?: string
  /** Where the key is read from when `apiKey` is not given (default "OPENAI_API_KEY"). */
  apiKeyEnv?: string
  /** More request fields (e.g. reasoning_effort); declared, so they are part of the config. */
  extraBody?: JsonObject
  /** How a JSON reply is asked for (an LLM judge asks for one): json_schema (default), json_object or none. */
  structuredOutput?: 'json_schema' | 'json_object' | 'none'
}

type OpenAIModule = typeof import('openai')

/** What every adapter on an OpenAI-compatible endpoint shares: its declared config, its client, its call settings. */
export interface OpenAIConnection {
  model: string
  config: JsonObject
  structured: NonNullable<OpenAIChatOptions['structuredOutput']>
  samplingBody: JsonObject
  /** Request fields the suite declared; they go last, so they override digline's own. */
  extraBody: JsonObject
  settings: CallSettings
  stats: ModelCallStats
  load(): Promise<OpenAIClient>
}

type OpenAIClient = { mod: OpenAIModule; client: InstanceType<OpenAIModule['default']> }

/** Where an OpenAI-compatible adapter sends its calls, with which key, and its SDK client, loaded on the first call. */
export function openaiEndpoint(
  options: { baseURL?: string; apiKey?: string; apiKeyEnv?: string },
  env: NodeJS.ProcessEnv,
  owner: string,
  model: string,
  timeoutMs: number,
): { base: string; apiKey: string | undefined; load(): Promise<OpenAIClient> } {
  const baseURL = options.baseURL ?? (env.OPENAI_BASE_URL || OPENAI_BASE_URL)
  const base = publicBase(baseURL, owner)
  const keyEnv = options.apiKeyEnv ?? 'OPENAI_API_KEY'
  const apiKey = options.apiKey ?? (env[keyEnv] || undefined)
  if (apiKey === undefined && base === OPENAI_BASE_URL) {
    throw new MissingApiKeyError(
      `${owner} for ${JSON.stringify(model)} at ${base} has no API key: ${keyEnv} is not set`,
      `Set ${keyEnv} in the environment (or pass apiKey), or point baseURL at a server that needs no key.`,
    )
  }
  requirePeer('openai', owner)
  let loaded: Promise<OpenAIClient> | undefined
  const load = () =>
    (loaded ??= import('openai').then((mod) => ({
      mod,
      // Local servers usually take no key, but the SDK insists on one.
      client: new mod.default({ apiKey: apiKey ?? 'no-key', baseURL, maxRetries: 0, timeout: timeoutMs * 2 }),
    })))
  return { base, apiKey, load }
}

export function openaiConnection(options: OpenAIChatOptions, env: NodeJS.ProcessEnv, owner: string): OpenAIConnection {
  if (options === null || typeof options !== 'object') throw invalid(owner, 'options', 'must be { model, baseURL?, apiKey?, … }')
  const model = requireModelId(options.model, owner)
  const calls = callOptions(options, owner)
  const sampling = samplingConfig(options, owner)
  const structured = options.structuredOutput ?? 'json_schema'
  if (!['json_schema', 'json_object', 'none'].includes(structured)) throw invalid(owner, 'structuredOutput', 'must be "json_schema", "json_object" or "none"')
  if (options.extraBody !== undefined && (options.extraBody === null || typeof options.extraBody !== 'object' || Array.isArray(options.extraBody))) {
    throw invalid(owner, 'extraBody', 'must be an object of request fields')
  }
  const { base, apiKey, load } = openaiEndpoint(options, env, owner, model, calls.timeoutMs)

  const config: JsonObject = { provider: 'openai-compatible', model, base_url: base, ...sampling }
  if (options.extraBody !== undefined) config.extra_body = options.extraBody
  if (structured !== 'json_schema') config.structured_output = structured
  if (apiKey !== undefined && JSON.stringify(config).includes(apiKey)) throw invalid(owner, 'extraBody', 'holds the API key; a declared config is written to every run document')

  const stats = newStats()
  let mod: OpenAIModule | undefined
  const settings: CallSettings = {
    owner: `openai-compatible ${JSON.stringify(model)} at ${base}`,
    pool: options.pool ?? `openai-compatible ${base}`,
    maxInFlight: calls.maxInFlight,
    policy: calls.policy,
    timeoutMs: calls.timeoutMs,
    redact: redactor([apiKey]),
    stats,
    classify: (error) => classifyOpenAIError(mod!, error),
  }
  return {
    model,
    config,
    structured,
    samplingBody: { ...sampling },
    extraBody: options.extraBody ?? {},
    settings,
    stats,
    load: async () => {
      const loadedNow = await load()
      mod = loadedNow.mod
      return loadedNow
    },
  }
}

export function openaiModel(options: OpenAIChatOptions, env: NodeJS.ProcessEnv = process.env): ChatModel {
  const { model, config, structured, samplingBody, extraBody, settings, stats, load } = openaiConnection(options, env, 'openaiModel()')
  return {
    config,
    stats: () => ({ ...stats, retried: { ...stats.retried } }),
    async complete(request: ChatRequest): Promise<ChatReply> {
      const { client } = await load()
      const body = {
        model,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        ...samplingBody,
        ...(request.json === undefined ? {} : responseFormat(structured, request.json)),
        ...extraBody,
      } as ChatCompletionCreateParamsNonStreaming
      const completion = await callWithRetries(settings, request.signal, (signal) => client.chat.completions.create(body, { signal }))
      const message = completion.choices?.[0]?.message
      const text = message?.content ?? message?.refusal
      if (typeof text !== 'string') {
        throw new Error(settings.redact(`${settings.owner} answered without choices[0].message.content (finish_reason: ${completion.choices?.[0]?.finish_reason ?? 'none'})`))
      }
      const usage = completion.usage
      return {
        text,
        model: typeof completion.model === 'string' && completion.model !== '' ? completion.model : undefined,
        usage:
          usage && Number.isInteger(usage.prompt_tokens) && Number.isInteger(usage.completion_tokens)
            ? { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens }
            : undefined,
      }
    },
  }
}

function responseFormat(structured: OpenAIChatOptions['structuredOutput'], json: JsonReplyFormat): JsonObject {
  if (structured === 'json_schema') return { response_format: { type: 'json_schema', json_schema: { name: json.name, schema: json.schema, strict: true } } }
  if (structured === 'json_object') return { response_format: { type: 'json_object' } }
  return {}
}

export function classifyOpenAIError(mod: OpenAIModule, error: unknown): Failure {
  if (error instanceof mod.APIConnectionTimeoutError) return { retry: true, reason: 'timeout', message: describeError(error) }
  if (error instanceof mod.APIConnectionError || isNetworkError(error)) return { retry: true, reason: 'network', message: `connection failed: ${describeError(error)}` }
  if (error instanceof mod.APIError && typeof error.status === 'number') {
    const headers = error.headers
    return statusFailure(error.status, (name) => headers?.get(name), `HTTP ${error.message}`)
  }
  return { retry: false, message: describeError(error) }
}

/** The base URL as the config records it: no credentials, no query, no fragment, no trailing slash. */
export function publicBase(baseURL: string, owner: string): string {
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    throw invalid(owner, 'baseURL', `must be a URL up to and including /v1, e.g. http://localhost:11434/v1; got ${JSON.stringify(baseURL)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(owner, 'baseURL', `must be http(s); got ${JSON.stringify(url.protocol)}`)
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '')
}
