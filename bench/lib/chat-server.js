// A loopback OpenAI-compatible chat server for the concurrency figure: POST /v1/chat/completions
// answers after a fixed latency with `echo: <last user message>`. 127.0.0.1 only. Run as its own
// process (node bench/lib/chat-server.js [latencyMs]) so its work is not on the measured loop; it
// prints {"port": N} on stdout when listening, and counts requests (GET /stats).
import { createServer } from 'node:http'

export function startChatServer({ latencyMs = 100, port = 0 } = {}) {
  let requests = 0
  let inFlight = 0
  let peakInFlight = 0
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/reset') {
      requests = 0
      peakInFlight = inFlight
      res.end('{}')
      return
    }
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ requests, peakInFlight }))
      return
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }))
      return
    }
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      requests++
      inFlight++
      peakInFlight = Math.max(peakInFlight, inFlight)
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        inFlight--
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: 'body is not JSON' } }))
        return
      }
      const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')
      const content = `echo: ${user?.content ?? ''}`
      setTimeout(() => {
        inFlight--
        const payload = JSON.stringify({
          id: `chatcmpl-${requests}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'bench-echo-2026-01',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 },
        })
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) })
        res.end(payload)
      }, latencyMs)
    })
  })
  server.keepAliveTimeout = 60_000
  server.headersTimeout = 61_000
  server.maxRequestsPerSocket = 0
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve({ server, port: server.address().port, stats: () => ({ requests, peakInFlight }) }))
  })
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const latencyMs = Number(process.argv[2] ?? 100)
  const { port } = await startChatServer({ latencyMs })
  process.stdout.write(`${JSON.stringify({ port })}\n`)
  process.on('SIGTERM', () => process.exit(0))
}
