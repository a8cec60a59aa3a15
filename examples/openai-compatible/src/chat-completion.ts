// One call to an OpenAI-compatible POST /chat/completions with plain fetch: no SDK. Retries what is
// worth retrying (429, 5xx, a dropped connection) a few times with backoff, honours Retry-After, and
// stops at once when the caller's signal aborts.
import type { EndpointSettings } from './endpoint-settings.js'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatRequest {
  messages: ChatMessage[]
  temperature: number
  max_tokens: number
}

export interface ChatReply {
  content: string
  /** The model the endpoint says answered (may differ from the one asked for: aliases roll). */
  model: string | undefined
  usage: { input_tokens: number; output_tokens: number } | undefined
}

const ATTEMPTS = 4
const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504])
const TIMEOUT_MS = 60_000

export async function chatCompletion(endpoint: EndpointSettings, request: ChatRequest, signal: AbortSignal): Promise<ChatReply> {
  const url = `${endpoint.baseUrl}/chat/completions`
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`
  const body = JSON.stringify({ model: endpoint.model, ...request, stream: false })

  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted()
    let response: Response
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) })
    } catch (error) {
      if (signal.aborted || attempt >= ATTEMPTS) throw new Error(`POST ${url} failed: ${(error as Error).message}`)
      await pause(backoff(attempt), signal)
      continue
    }
    if (response.ok) return parseReply(await response.text(), url)
    const text = await response.text().catch(() => '')
    if (!RETRYABLE.has(response.status) || attempt >= ATTEMPTS) {
      throw new Error(`POST ${url} answered ${response.status} ${response.statusText}: ${text.slice(0, 300)}`)
    }
    await pause(retryAfter(response.headers.get('retry-after')) ?? backoff(attempt), signal)
  }
}

function parseReply(text: string, url: string): ChatReply {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`POST ${url} answered something that is not JSON: ${text.slice(0, 200)}`)
  }
  const reply = json as {
    model?: unknown
    choices?: { message?: { content?: unknown } }[]
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown }
  }
  const content = reply.choices?.[0]?.message?.content
  if (typeof content !== 'string') throw new Error(`POST ${url} answered without choices[0].message.content: ${text.slice(0, 200)}`)
  const { prompt_tokens: input, completion_tokens: output } = reply.usage ?? {}
  return {
    content,
    model: typeof reply.model === 'string' && reply.model !== '' ? reply.model : undefined,
    usage: typeof input === 'number' && typeof output === 'number' ? { input_tokens: input, output_tokens: output } : undefined,
  }
}

function backoff(attempt: number): number {
  return 500 * 2 ** (attempt - 1) + Math.floor(Math.random() * 250)
}

/** Retry-After in seconds or as an HTTP date, capped at 30 s; undefined when absent or unreadable. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
  return Number.isFinite(ms) ? Math.min(30_000, Math.max(0, ms)) : undefined
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
