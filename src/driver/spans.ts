// OpenTelemetry spans of a run (SPEC §16, ADR 0330): where the project has `@opentelemetry/api` (an
// optional peer) and has registered a tracer provider, each case, sample, conversation turn, model
// call and tool call is a span; otherwise nothing is loaded and every hook below does nothing. The
// API is found next to digline first, then from the working directory (the project's root), and
// imported only once a provider is registered (ADR 0406): before that, its tracer is a no-op.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CaseSpan, RunSpans } from './span-hooks.js'

export type { CaseSpan, RunSpans }

const NO_CASE: CaseSpan = { sample: (_index, run) => run(), end: () => {} }
export const NO_SPANS: RunSpans = { startCase: () => NO_CASE }

const API = '@opentelemetry/api'

/** Where the API would be imported from, or undefined when the project does not have it. */
export function findTracingApi(cwd = process.cwd()): string | undefined {
  for (const from of [import.meta.url, join(cwd, 'package.json')]) {
    try {
      return createRequire(from).resolve(API)
    } catch {
      // not from here
    }
  }
  return undefined
}

// Where every copy of the API (major version 1, the peer range) keeps what was registered with it.
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1')

/** Whether some copy of the API has a global tracer provider: without one every span would go to its no-op tracer. */
export function tracerProviderRegistered(): boolean {
  const registered = (globalThis as Record<symbol, unknown>)[API_GLOBAL]
  return typeof registered === 'object' && registered !== null && (registered as { trace?: unknown }).trace !== undefined
}

let loaded: Promise<RunSpans> | undefined

/**
 * The spans of this process: OpenTelemetry's when its API is installed and a tracer provider is
 * registered, else none. Asked again by each run until a provider is there; then loaded once.
 */
export function runSpans(): Promise<RunSpans> {
  if (loaded === undefined && !tracerProviderRegistered()) return Promise.resolve(NO_SPANS)
  loaded ??= (async () => {
    const path = findTracingApi()
    if (path === undefined) return NO_SPANS
    const [api, { otelSpans }] = await Promise.all([import(pathToFileURL(path).href) as Promise<Record<string, unknown>>, import('./otel-spans.js')])
    return otelSpans((api.trace === undefined ? api.default : api) as never)
  })()
  return loaded
}
