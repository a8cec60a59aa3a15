// The options every adapter shares: sampling parameters (declared, so part of the config) and the
// call settings (retries, the in-flight cap, the timeout), which are operations, not identity.
import type { JsonObject } from '../suite/types.js'
import { invalid, retryPolicy, type RetryOptions, type RetryPolicy } from './retry-policy.js'

export interface SamplingOptions {
  temperature?: number
  topP?: number
  maxTokens?: number
  seed?: number
  stop?: string[]
}

export interface CallOptions {
  /** The retry ceiling and backoff (default { attempts: 5, baseMs: 500, maxMs: 30000 }). */
  retry?: RetryOptions
  /** At most this many attempts in flight to this pool across the whole launch (default 8). */
  maxInFlight?: number
  /** The name of the in-flight pool; adapters with the same pool share one cap (default: the endpoint). */
  pool?: string
  /** Each attempt gets this long before it counts as a timeout and is tried again (default 120000). */
  timeoutMs?: number
}

export const DEFAULT_MAX_IN_FLIGHT = 8
export const DEFAULT_TIMEOUT_MS = 120_000

export interface CallSettingsOf {
  policy: RetryPolicy
  maxInFlight: number
  timeoutMs: number
}

export function callOptions(options: CallOptions, owner: string): CallSettingsOf {
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw invalid(owner, 'maxInFlight', 'must be an integer ≥ 1')
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw invalid(owner, 'timeoutMs', 'must be a number of ms > 0')
  if (options.pool !== undefined && (typeof options.pool !== 'string' || options.pool === '')) throw invalid(owner, 'pool', 'must be a non-empty string')
  return { policy: retryPolicy(options.retry, owner), maxInFlight, timeoutMs }
}

/** The sampling parameters that were set, in snake_case, as the declared config records them. */
export function samplingConfig(options: SamplingOptions, owner: string): JsonObject {
  const out: JsonObject = {}
  const numbers: [keyof SamplingOptions, string][] = [
    ['temperature', 'temperature'],
    ['topP', 'top_p'],
    ['maxTokens', 'max_tokens'],
    ['seed', 'seed'],
  ]
  for (const [key, name] of numbers) {
    const value = options[key]
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(owner, key, 'must be a finite number')
    if ((key === 'maxTokens' || key === 'seed') && !Number.isInteger(value)) throw invalid(owner, key, 'must be an integer')
    out[name] = value
  }
  if (options.stop !== undefined) {
    if (!Array.isArray(options.stop) || options.stop.some((s) => typeof s !== 'string')) throw invalid(owner, 'stop', 'must be a list of strings')
    out.stop = [...options.stop]
  }
  return out
}

export function requireModelId(model: unknown, owner: string): string {
  if (typeof model !== 'string' || model.trim() === '') throw invalid(owner, 'model', `must be the model id to ask for, e.g. "gpt-4o-mini"; got ${JSON.stringify(model)}`)
  return model
}

export { invalid }
