// How a tool answers: structured content plus the same JSON as text, or a tool error that carries a
// refusal's name and the words the CLI prints. A tool error never carries structuredContent: a
// client that listed the tools (every agent does) checks structuredContent against the tool's output
// schema even on an error, and an error shape would fail it, losing the refusal (ADR 0162). The
// refusal's name and kind ride in _meta instead, under ERROR_META.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { diglineErrorKind } from '../errors/recognise.js'

/** The _meta key of a tool error that is one of digline's: { error, kind, message }. */
export const ERROR_META = 'digline/error'

export function answer(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data }
}

export function toolError(error: unknown): CallToolResult {
  const kind = diglineErrorKind(error)
  const e = error instanceof Error ? error : new Error(String(error))
  const label = kind === 'refusal' ? 'refused' : kind === 'internal' ? 'internal error' : 'failed'
  const text = kind === undefined ? `${label} ${e.stack ?? e.message}` : `${label} ${e.name}: ${e.message}`
  return { content: [{ type: 'text', text }], isError: true, ...(kind === undefined ? {} : { _meta: { [ERROR_META]: { error: e.name, kind, message: e.message } } }) }
}

/** Runs a tool's body; whatever it throws comes back as a tool error, never as a crash of the server. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body()
  } catch (error) {
    return toolError(error)
  }
}
