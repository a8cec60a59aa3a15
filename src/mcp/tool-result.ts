// How a tool answers: structured content plus the same JSON as text, or a tool error that carries a
// refusal's name and the words the CLI prints.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { diglineErrorKind } from '../errors/recognise.js'

export function answer(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data }
}

export function toolError(error: unknown): CallToolResult {
  const kind = diglineErrorKind(error)
  const e = error instanceof Error ? error : new Error(String(error))
  const label = kind === 'refusal' ? 'refused' : kind === 'internal' ? 'internal error' : 'failed'
  const text = kind === undefined ? `${label} ${e.stack ?? e.message}` : `${label} ${e.name}: ${e.message}`
  return { content: [{ type: 'text', text }], isError: true, ...(kind === undefined ? {} : { structuredContent: { error: e.name, kind, message: e.message } }) }
}

/** Runs a tool's body; whatever it throws comes back as a tool error, never as a crash of the server. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body()
  } catch (error) {
    return toolError(error)
  }
}
