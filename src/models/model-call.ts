// One model call with its retries: a slot under the in-flight cap for each attempt, a timeout per
// attempt, 408/429/5xx and network errors tried again with backoff (Retry-After honoured), and a
// named error once the ceiling is reached. Messages are redacted before they leave.
import type { ModelCallStats } from './chat-model.js'
import { inFlightSlots } from './in-flight.js'
import { retryAfterMs, waitBeforeRetry, type RetryPolicy } from './retry-policy.js'

/** What went wrong with one attempt, as the adapter reads its SDK's error. */
export type Failure = { retry: true; reason: string; retryAfterMs?: number; message: string } | { retry: false; message: string }

/** A model call that failed for good; the driver records it as the case's error. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError'
}

export interface CallSettings {
  /** Names the adapter in messages, e.g. `openai-compatible "gpt-4o-mini" at https://…/v1`. */
  owner: string
  pool: string
  maxInFlight: number
  policy: RetryPolicy
  timeoutMs: number
  classify(error: unknown): Failure
  redact(text: string): string
  stats: ModelCallStats
}

export function newStats(): ModelCallStats {
  return { calls: 0, attempts: 0, retried: {}, gaveUp: 0, failed: 0 }
}

export async function callWithRetries<T>(settings: CallSettings, signal: AbortSignal | undefined, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { policy, stats } = settings
  const slots = inFlightSlots()
  const reasons: string[] = []
  stats.calls++
  for (let n = 1; ; n++) {
    signal?.throwIfAborted()
    const lease = await slots.acquire(settings.pool, settings.maxInFlight, n, signal)
    stats.attempts++
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(new Error(`no answer within ${settings.timeoutMs} ms`)), settings.timeoutMs)
    let failure: Failure
    try {
      const value = await attempt(signal === undefined ? timeout.signal : AbortSignal.any([signal, timeout.signal]))
      await lease.release('ok')
      return value
    } catch (error) {
      if (signal?.aborted) {
        await lease.release('aborted')
        throw signal.reason
      }
      failure = timeout.signal.aborted ? { retry: true, reason: 'timeout', message: `no answer within ${settings.timeoutMs} ms` } : settings.classify(error)
    } finally {
      clearTimeout(timer)
    }
    if (!failure.retry) {
      stats.failed++
      await lease.release('failed')
      throw new ModelCallError(settings.redact(`${settings.owner}: ${failure.message}`))
    }
    reasons.push(failure.reason)
    if (n >= policy.attempts) {
      stats.gaveUp++
      await lease.release('gave-up')
      throw new ModelCallError(settings.redact(`${settings.owner}: ${failure.message}; gave up after ${n} attempt${n === 1 ? '' : 's'} (${reasons.join(', ')})`))
    }
    stats.retried[failure.reason] = (stats.retried[failure.reason] ?? 0) + 1
    await lease.release(`retry:${failure.reason}`)
    await pause(waitBeforeRetry(policy, n, failure.retryAfterMs), signal)
  }
}

/** The failure for an HTTP status: 408, 429 and every 5xx are tried again. */
export function statusFailure(status: number, header: (name: string) => string | null | undefined, message: string): Failure {
  if (status === 408 || status === 429 || status >= 500) return { retry: true, reason: String(status), retryAfterMs: retryAfterMs(header), message }
  return { retry: false, message }
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])

/** A dropped or refused connection anywhere in the cause chain (fetch wraps them as "fetch failed"/"terminated"). */
export function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>()
  for (let e = error; e instanceof Error && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e)
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true
    if (e instanceof TypeError && (e.message === 'fetch failed' || e.message === 'terminated')) return true
  }
  return false
}

/** The message of anything thrown, with the first cause that says more. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error && cause.message !== error.message ? `${error.message} (${cause.message})` : error.message
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
