// A loopback HTTP server that speaks the few forge endpoints `digline comment` uses (GitHub's issue
// comments and check runs, GitLab's merge-request notes) and records every request it received.
// `readOnly` answers every write with the 403 a fork's pull request gets.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  method: string
  url: string
  /** The credential header as sent (authorization or private-token); kept apart from the rest. */
  credential: string | undefined
  body: unknown
}

export interface StoredNote {
  id: number
  body: string
  user?: { login: string; type: string }
  system?: boolean
}

export interface ForgeServer {
  url: string
  received: Received[]
  /** Comments (GitHub) or notes (GitLab) by pull/merge request number. */
  threads: Map<number, StoredNote[]>
  checkRuns: { id: number; body: Record<string, unknown>; updates: Record<string, unknown>[] }[]
  readOnly: boolean
  close(): Promise<void>
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text === '' ? undefined : JSON.parse(text)
}

export async function startForgeServer(token: string): Promise<ForgeServer> {
  let nextId = 1000
  const forge: Omit<ForgeServer, 'url' | 'close'> = { received: [], threads: new Map(), checkRuns: [], readOnly: false }
  const thread = (n: number) => forge.threads.get(n) ?? (forge.threads.set(n, []).get(n) as StoredNote[])
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req)
      const url = req.url ?? ''
      const credential = (req.headers.authorization as string | undefined) ?? (req.headers['private-token'] as string | undefined)
      forge.received.push({ method: req.method ?? '', url, credential, body })
      const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers })
        res.end(JSON.stringify(data))
      }
      const gitlab = url.startsWith('/api/v4/')
      if (credential !== `token ${token}` && credential !== `bearer ${token}` && credential !== token)
        return send(401, { message: gitlab ? '401 Unauthorized' : 'Bad credentials' })
      if (forge.readOnly && req.method !== 'GET')
        return send(
          403,
          gitlab ? { message: '403 Forbidden' } : { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' },
        )
      const text = (body as { body?: string } | undefined)?.body ?? ''
      let m: RegExpExecArray | null
      if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments(\?.*)?$/.exec(url))) {
        const list = thread(Number(m[1]))
        if (req.method === 'GET') return send(200, list)
        const note = { id: nextId++, body: text, user: { login: 'github-actions[bot]', type: 'Bot' } }
        list.push(note)
        return send(201, { ...note, html_url: `https://github.test/pr/${m[1]}#issuecomment-${note.id}` })
      }
      if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url)) && req.method === 'PATCH') {
        const note = [...forge.threads.values()].flat().find((n) => n.id === Number(m![1]))
        if (note === undefined) return send(404, { message: 'Not Found' })
        note.body = text
        return send(200, { ...note, html_url: `https://github.test/comment/${note.id}` })
      }
      if (/^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(url) && req.method === 'POST') {
        const run = { id: nextId++, body: body as Record<string, unknown>, updates: [] }
        forge.checkRuns.push(run)
        return send(201, { id: run.id, html_url: `https://github.test/runs/${run.id}` })
      }
      if ((m = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(url)) && req.method === 'PATCH') {
        const run = forge.checkRuns.find((r) => r.id === Number(m![1]))
        if (run === undefined) return send(404, { message: 'Not Found' })
        run.updates.push(body as Record<string, unknown>)
        return send(200, { id: run.id })
      }
      if ((m = /^\/api\/v4\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes(?:\/(\d+))?(\?.*)?$/.exec(url))) {
        const list = thread(Number(m[2]))
        if (req.method === 'GET') return send(200, list, { 'x-next-page': '' })
        if (req.method === 'POST') {
          const note = { id: nextId++, body: text }
          list.push(note)
          return send(201, note)
        }
        const note = list.find((n) => n.id === Number(m![3]))
        if (req.method === 'PUT' && note !== undefined) return ((note.body = text), send(200, note))
      }
      send(404, { message: 'Not Found' })
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return Object.assign(forge, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}
