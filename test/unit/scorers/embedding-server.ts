// A loopback server that speaks the OpenAI embeddings API (POST /v1/embeddings): each text's vector
// comes from a script, the usage counts one token per word, a status can be scripted, and every
// request is recorded.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface EmbeddingRequest {
  model: string
  input: string[]
  encoding_format?: string
  dimensions?: number
}

export interface EmbeddingServer {
  url: string
  requests: EmbeddingRequest[]
  /** The vector of a text; `status` answers the whole request with that HTTP status instead. */
  script: { vector(text: string): number[]; status?: number; model?: string }
  close(): Promise<void>
}

export async function startEmbeddingServer(vector: (text: string) => number[]): Promise<EmbeddingServer> {
  const state: EmbeddingServer = { url: '', requests: [], script: { vector }, close: () => new Promise((resolve) => server.close(() => resolve())) }
  const server = createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (d: string) => (text += d))
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        const out = JSON.stringify(body)
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) })
        res.end(out)
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) return send(404, { error: { message: `no route ${req.method} ${req.url}` } })
      const body = JSON.parse(text) as EmbeddingRequest
      const input = typeof body.input === 'string' ? [body.input] : body.input
      state.requests.push({ ...body, input })
      if (state.script.status !== undefined) return send(state.script.status, { error: { message: `scripted ${state.script.status}`, type: 'scripted', code: null } })
      const tokens = input.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0)
      send(200, {
        object: 'list',
        model: state.script.model ?? body.model,
        data: input.map((t, index) => ({ object: 'embedding', index, embedding: state.script.vector(t) })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return state
}
