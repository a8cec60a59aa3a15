// The one write the viewer answers, in review mode only: POST /reviews, a person's label of a case
// (docs/adr/0340). It is the page's own request or nothing: the Host must be the viewer's, the
// Origin its own page's, the body JSON of at most 16 KiB, and the x-digline-token header the token
// this session put in its page. A cross-site page cannot read that token, and the JSON content
// type and the custom header make its browser ask first (a preflight this server never allows).
import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isDiglineError, type DiglineErrorData } from '../errors/base.js'
import type { CaseLabel } from '../host/index.js'
import { ReviewBodyTooLargeError, ReviewHostRefusedError, ReviewOriginRefusedError, ReviewRequestRefusedError, ReviewTokenRefusedError } from './errors.js'

export const REVIEW_PATH = '/reviews'
export const REVIEW_BODY_LIMIT = 16 * 1024
export const TOKEN_HEADER = 'x-digline-token'

export interface ReviewMode {
  /** The per-session token, put in the page and required of every POST. */
  token: string
  /** Who labels, as the page shows it. */
  reviewer: string
  /** Appends the label; refusals are DiglineErrors. */
  label(label: CaseLabel): Promise<{ appended: boolean; review: unknown }>
  /** A POST that was refused, for the terminal. */
  onRefused?: (refusal: DiglineErrorData, status: number) => void
}

const LABEL_FIELDS = new Set(['suite', 'run', 'case_id', 'judges', 'verdict', 'note'])

/** The HTTP status of a refusal, by its name: what was not found is 404, a removed run 410. */
const STATUS: Record<string, number> = {
  ReviewHostRefusedError: 421,
  ReviewOriginRefusedError: 403,
  ReviewTokenRefusedError: 403,
  ReviewBodyTooLargeError: 413,
  RunNotFoundError: 404,
  ReviewCaseNotFoundError: 404,
  RunRemovedError: 410,
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  })
  res.end(body)
}

function refuse(res: ServerResponse, mode: ReviewMode, refusal: DiglineErrorData, status?: number): void {
  const code = status ?? STATUS[refusal.name] ?? (refusal.exitCode === 64 ? 400 : 500)
  mode.onRefused?.(refusal, code)
  sendJson(res, code, { refusal: { name: refusal.name, message: refusal.message, next: refusal.next } })
}

function sameToken(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

const PAGE = 'label from the page the viewer printed'

/** Reads at most `limit` bytes of the body; undefined when it is larger (the rest is never read). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.removeAllListeners('data')
        req.pause()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function labelOf(text: string): CaseLabel {
  const bad = (why: string) => new ReviewRequestRefusedError(`refused the label: ${why}; nothing was written`, `${PAGE}, which sends the label as it should`, ['body'])
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw bad('its body is not JSON')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad('its body is not a JSON object')
  const record = value as Record<string, unknown>
  const extra = Object.keys(record).filter((k) => !LABEL_FIELDS.has(k))
  if (extra.length > 0) throw bad(`it holds ${extra.map((k) => JSON.stringify(k)).join(', ')}, which a label does not (the reviewer and the time are the viewer's own)`)
  for (const field of ['suite', 'run', 'case_id', 'verdict'] as const) if (typeof record[field] !== 'string') throw bad(`its ${field} is not a string`)
  if (record.judges === null || typeof record.judges !== 'object' || Array.isArray(record.judges)) throw bad('its judges is not an object of scorer names')
  if (record.note !== undefined && record.note !== null && typeof record.note !== 'string') throw bad('its note is not a string')
  return {
    suite: record.suite as string,
    run: record.run as string,
    case_id: record.case_id as string,
    judges: record.judges as CaseLabel['judges'],
    verdict: record.verdict as CaseLabel['verdict'],
    note: (record.note as string | null | undefined) ?? null,
  }
}

/** Answers POST /reviews; every check comes before the body is read. */
export async function answerReview(req: IncomingMessage, res: ServerResponse, hosts: readonly string[], mode: ReviewMode): Promise<void> {
  const host = req.headers.host ?? ''
  if (!hosts.includes(host)) {
    return refuse(
      res,
      mode,
      new ReviewHostRefusedError(`refused a label sent to host ${JSON.stringify(host)}: the viewer answers ${hosts.join(' and ')} only; nothing was written`, PAGE),
    )
  }
  const origin = req.headers.origin
  const site = req.headers['sec-fetch-site']
  if (origin === undefined || !hosts.some((h) => origin === `http://${h}`) || (site !== undefined && site !== 'same-origin')) {
    return refuse(
      res,
      mode,
      new ReviewOriginRefusedError(
        `refused a label from ${origin === undefined ? 'a request with no Origin' : `origin ${JSON.stringify(origin)}`}: only the viewer's own page (http://${hosts[0]}) may label; nothing was written`,
        PAGE,
      ),
    )
  }
  if (!sameToken(req.headers[TOKEN_HEADER], mode.token)) {
    return refuse(
      res,
      mode,
      new ReviewTokenRefusedError(
        `refused a label without this session's token (the ${TOKEN_HEADER} header the viewer's page sends); nothing was written`,
        'reload the page from the running viewer (a restarted viewer has a new token), then label again',
      ),
    )
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') {
    return refuse(res, mode, new ReviewRequestRefusedError(`refused a label sent as ${JSON.stringify(type)}: a label is application/json; nothing was written`, PAGE), 415)
  }
  const tooLarge = () =>
    new ReviewBodyTooLargeError(
      `refused a label larger than ${REVIEW_BODY_LIMIT} bytes; nothing was read further or written`,
      'shorten the note (at most 4000 characters), then label again',
    )
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > REVIEW_BODY_LIMIT) {
    res.setHeader('connection', 'close')
    return refuse(res, mode, tooLarge())
  }
  const body = await readBody(req, REVIEW_BODY_LIMIT)
  if (body === undefined) {
    res.setHeader('connection', 'close')
    return refuse(res, mode, tooLarge())
  }
  try {
    const { appended, review } = await mode.label(labelOf(body.toString('utf8')))
    sendJson(res, appended ? 201 : 200, { appended, review })
  } catch (error) {
    if (!isDiglineError(error)) throw error
    refuse(res, mode, error)
  }
}
