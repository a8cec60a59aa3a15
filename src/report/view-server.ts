// `digline view`: the report's pages served to this machine only. GET and HEAD of two paths, the
// page and its data; each request reads the store afresh, so a run in progress shows its cases as
// its journal records them. A request naming another host (DNS rebinding) is refused. Read-only,
// unless started in review mode: then POST /reviews appends a label, under the checks of
// review-endpoint.ts (docs/adr/0340).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ReportData } from '../host/index.js'
import { pageData } from './case-columns.js'
import { renderPage } from './render-page.js'
import { answerReview, REVIEW_PATH, type ReviewMode } from './review-endpoint.js'

export const VIEW_HOST = '127.0.0.1'
export const DATA_PATH = '/data.json'

export interface ViewServer {
  url: string
  port: number
  close(): Promise<void>
}

export interface ViewOptions {
  port: number
  /** Reads the data anew for each request (in review mode, with the labels of the runs shown). */
  load: () => Promise<ReportData & { reviews?: unknown[] }>
  /** Review mode: the page can label cases; absent, the viewer is read-only. */
  review?: ReviewMode
  /** A request that could not be answered, for the terminal. */
  onError?: (error: unknown) => void
}

function send(res: ServerResponse, status: number, type: string, body: string, head: boolean): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  })
  res.end(head ? undefined : body)
}

/** The path a request names, or undefined when its target is not a URL at all (`GET http://[`). */
function pathOf(target: string): string | undefined {
  try {
    return new URL(target, `http://${VIEW_HOST}`).pathname
  } catch {
    return undefined
  }
}

async function answer(req: IncomingMessage, res: ServerResponse, port: number, options: ViewOptions): Promise<void> {
  const head = req.method === 'HEAD'
  const hosts = [`${VIEW_HOST}:${port}`, `localhost:${port}`]
  if (options.review !== undefined && req.method === 'POST' && pathOf(req.url ?? '/') === REVIEW_PATH) return answerReview(req, res, hosts, options.review)
  if (req.method !== 'GET' && !head) {
    if (options.review !== undefined && pathOf(req.url ?? '/') === REVIEW_PATH) {
      res.setHeader('allow', 'POST')
      return send(res, 405, 'text/plain; charset=utf-8', `${REVIEW_PATH} answers POST only, from the viewer's own page\n`, false)
    }
    res.setHeader('allow', 'GET, HEAD')
    return send(res, 405, 'text/plain; charset=utf-8', 'digline view is read-only: only GET and HEAD are answered\n', false)
  }
  if (!hosts.includes(req.headers.host ?? '')) return send(res, 421, 'text/plain; charset=utf-8', `digline view answers requests for ${VIEW_HOST}:${port} only\n`, head)
  const path = pathOf(req.url ?? '/')
  if (path === undefined) return send(res, 400, 'text/plain; charset=utf-8', 'bad request: the request target is not a URL the viewer can read\n', head)
  if (path !== '/' && path !== DATA_PATH) return send(res, 404, 'text/plain; charset=utf-8', `not found: ${path} (the viewer serves / and ${DATA_PATH})\n`, head)
  let data: ReportData
  try {
    data = await options.load()
  } catch (error) {
    options.onError?.(error)
    return send(res, 500, 'text/plain; charset=utf-8', `digline view could not read the store: ${error instanceof Error ? error.message : String(error)}\n`, head)
  }
  if (path === DATA_PATH) return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(pageData(data)), head)
  const review = options.review === undefined ? undefined : { path: REVIEW_PATH, token: options.review.token, reviewer: options.review.reviewer }
  send(res, 200, 'text/html; charset=utf-8', renderPage(data, { live: DATA_PATH, ...(review === undefined ? {} : { review }) }), head)
}

/** Listens on 127.0.0.1:port (0: any free port) until closed. */
export async function startViewServer(options: ViewOptions): Promise<ViewServer> {
  let port = options.port
  const server: Server = createServer((req, res) => {
    answer(req, res, port, options).catch((error: unknown) => {
      options.onError?.(error)
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n', false)
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, VIEW_HOST, () => resolve())
  })
  port = (server.address() as AddressInfo).port
  return {
    url: `http://${VIEW_HOST}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
