// How often and how long a model call is tried again: exponential backoff with jitter, a
// Retry-After honoured when the provider sends one, and a ceiling the suite sets.
import { InvalidModelOptionsError } from './errors.js'

export interface RetryOptions {
  /** Attempts in all, the first included (default 5; 1 turns retries off). */
  attempts?: number
  /** The first backoff, in ms (default 500); each retry doubles it. */
  baseMs?: number
  /** No wait is longer than this, a Retry-After included (default 30 000). */
  maxMs?: number
}

export interface RetryPolicy {
  attempts: number
  baseMs: number
  maxMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 500, maxMs: 30_000 }

export function retryPolicy(options: RetryOptions | undefined, owner: string): RetryPolicy {
  if (options === undefined) return DEFAULT_RETRY
  if (options === null || typeof options !== 'object') throw invalid(owner, 'retry', 'must be { attempts?, baseMs?, maxMs? }')
  const policy = { ...DEFAULT_RETRY, ...dropUndefined(options) }
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1 || policy.attempts > 100) throw invalid(owner, 'retry.attempts', 'must be an integer from 1 to 100')
  if (!Number.isFinite(policy.baseMs) || policy.baseMs < 0) throw invalid(owner, 'retry.baseMs', 'must be a number of ms ≥ 0')
  if (!Number.isFinite(policy.maxMs) || policy.maxMs < policy.baseMs) throw invalid(owner, 'retry.maxMs', 'must be a number of ms ≥ retry.baseMs')
  return policy
}

/** The wait before retry number `retry` (1 for the first retry): half fixed, half random. */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1))
  return ceiling / 2 + random() * (ceiling / 2)
}

/** The wait a provider asked for, or undefined; `retry-after-ms` first, then Retry-After in seconds or as an HTTP date. */
export function retryAfterMs(header: (name: string) => string | null | undefined, now: number = Date.now()): number | undefined {
  const ms = Number(header('retry-after-ms') ?? Number.NaN)
  if (Number.isFinite(ms) && ms >= 0) return ms
  const raw = header('retry-after')
  if (raw === null || raw === undefined || raw.trim() === '') return undefined
  const seconds = Number(raw)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(raw)
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined
}

/** The wait before the next attempt: what the provider asked for (plus up to 10% jitter), else the backoff; never over maxMs. */
export function waitBeforeRetry(policy: RetryPolicy, retry: number, askedMs: number | undefined, random: () => number = Math.random): number {
  const wait = askedMs === undefined ? backoffMs(policy, retry, random) : askedMs * (1 + random() * 0.1)
  return Math.min(policy.maxMs, wait)
}

function dropUndefined(options: RetryOptions): RetryOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as RetryOptions
}

export function invalid(owner: string, field: string, problem: string): InvalidModelOptionsError {
  return new InvalidModelOptionsError(`${owner}: ${field} ${problem}`, `Fix ${field} where the suite file creates the model (see docs/models.md).`, [field])
}
