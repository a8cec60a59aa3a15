// OpenTelemetry spans of a run (SPEC §16, ADR 0330): where the project has `@opentelemetry/api` (an
// optional peer), each case, sample, conversation turn, model call and tool call is a span; without
// it, nothing is loaded and every hook below does nothing. The API is found next to digline first,
// then from the working directory (the project's root), and imported only then.
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

let loaded: Promise<RunSpans> | undefined

/** The spans of this process: OpenTelemetry's when its API is installed, else none (decided once). */
export function runSpans(): Promise<RunSpans> {
  loaded ??= (async () => {
    const path = findTracingApi()
    if (path === undefined) return NO_SPANS
    const [api, { otelSpans }] = await Promise.all([import(pathToFileURL(path).href) as Promise<Record<string, unknown>>, import('./otel-spans.js')])
    return otelSpans((api.trace === undefined ? api.default : api) as never)
  })()
  return loaded
}
