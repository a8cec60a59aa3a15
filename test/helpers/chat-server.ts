// A loopback server that speaks the OpenAI Chat Completions API, scripted per request: a reply
// (model id, usage, content), a status (429 with Retry-After, 500, 529, 401…), or a dropped
// connection, each after an optional latency. It records every request and the peak in flight.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SeenRequest {
  /** 1-based, in arrival order. */
  n: number
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: unknown; [k: string]: unknown }
  authorization: string | undefined
  /** The last user message. */
  user: string
  startedAt: number
  endedAt?: number
  /** How many requests were in flight when this one arrived, itself included. */
  inFlightAtStart: number
}

export type Step =
  | { reply: string; model?: string; usage?: { prompt_tokens: number; completion_tokens: number } | null; latencyMs?: number; toolCalls?: ScriptedToolCall[] }
  | { status: number; headers?: Record<string, string>; message?: string; latencyMs?: number }
  | { drop: true; latencyMs?: number }

/** A tool call the scripted reply asks for (the reply's text may then be ''). */
export interface ScriptedToolCall {
  name: string
  arguments: unknown
  id?: string
}

export type Script = (request: SeenRequest) => Step

export interface ChatServer {
  /** The base URL, up to and including /v1. */
  url: string
  requests: SeenRequest[]
  peak(): number
  script: Script
  close(): Promise<void>
}

export const DEFAULT_USAGE = { prompt_tokens: 10, completion_tokens: 2 }

export async function startChatServer(script: Script): Promise<ChatServer> {
  const requests: SeenRequest[] = []
  let inFlight = 0
  let peak = 0
  const barriers = new Map<string, { parties: Set<string>; waiting: (() => void)[] }>()
  const state: ChatServer = {
    url: '',
    requests,
    peak: () => peak,
    script,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }

  const server = createServer(async (req, res) => {
    const text = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method === 'GET' && url.pathname === '/barrier') return barrier(url, res)
    if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) return send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } })
    const body = JSON.parse(text) as SeenRequest['body']
    const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? ''
    inFlight++
    peak = Math.max(peak, inFlight)
    const seen: SeenRequest = { n: requests.length + 1, body, authorization: req.headers.authorization, user, startedAt: performance.now(), inFlightAtStart: inFlight }
    requests.push(seen)
    const step = state.script(seen)
    if (step.latencyMs) await new Promise((r) => setTimeout(r, step.latencyMs))
    inFlight--
    seen.endedAt = performance.now()
    if ('drop' in step) return req.socket.destroy()
    if ('status' in step) return send(res, step.status, { error: { message: step.message ?? `scripted ${step.status}`, type: 'scripted', code: null } }, step.headers)
    send(res, 200, {
      id: `chatcmpl-${seen.n}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: step.model ?? body.model ?? 'unknown',
      choices: [{ index: 0, message: messageOf(step, seen.n), logprobs: null, finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop' }],
      ...(step.usage === null ? {} : { usage: withTotal(step.usage ?? DEFAULT_USAGE) }),
    })
  })

  // GET /barrier?name=N&party=P&parties=K answers once K distinct parties have asked (or after 10 s).
  function barrier(url: URL, res: ServerResponse): void {
    const name = url.searchParams.get('name') ?? 'default'
    const want = Number(url.searchParams.get('parties') ?? 2)
    const b = barriers.get(name) ?? { parties: new Set<string>(), waiting: [] }
    barriers.set(name, b)
    b.parties.add(url.searchParams.get('party') ?? String(b.parties.size))
    const done = () => send(res, 200, { parties: b.parties.size })
    if (b.parties.size >= want) {
      for (const w of b.waiting.splice(0)) w()
      return done()
    }
    const timer = setTimeout(done, 10_000)
    b.waiting.push(() => {
      clearTimeout(timer)
      done()
    })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return state
}

function messageOf(step: { reply: string; toolCalls?: ScriptedToolCall[] }, n: number) {
  if (!step.toolCalls?.length) return { role: 'assistant', content: step.reply, refusal: null }
  const tool_calls = step.toolCalls.map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }))
  return { role: 'assistant', content: step.reply === '' ? null : step.reply, refusal: null, tool_calls }
}

function withTotal(usage: { prompt_tokens: number; completion_tokens: number }) {
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (d: string) => (text += d))
    req.on('end', () => resolve(text))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}
