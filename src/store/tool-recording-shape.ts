// A tool recording as both backends read it back (src/suite/tool-replay.ts): the JSON a file or a
// row holds is served only when it is a recording whose key is the key of its own parts.
import { lazySchema } from '../suite/zod-on-demand.js'
import { toolRecordingKey, type ToolRecording } from '../suite/tool-replay.js'

const hex64 = lazySchema((z) => z.string().regex(/^[0-9a-f]{64}$/))

export const toolRecordingSchema = lazySchema((z) =>
  z.object({
    key: hex64,
    case_id: z.string(),
    parts: z.object({ tool: z.string(), version: hex64, arguments: hex64, occurrence: z.number().int().nonnegative(), turn: z.number().int().nonnegative().optional() }),
    run: z.string(),
    outcome: z.union([z.object({ result: z.unknown() }).strict(), z.object({ error: z.string() }).strict()]),
    recorded_at: z.string(),
  }),
)

/** The recording a JSON value is, when it checks out (its key is the key of its parts); undefined otherwise. */
export function recordingOf(value: unknown, caseId: string): ToolRecording | undefined {
  const parsed = toolRecordingSchema.safeParse(value)
  if (!parsed.success || parsed.data.case_id !== caseId || toolRecordingKey(parsed.data.case_id, parsed.data.parts) !== parsed.data.key) return undefined
  if ('result' in parsed.data.outcome && parsed.data.outcome.result === undefined) return undefined
  return parsed.data as ToolRecording
}

export function newestFirst(a: ToolRecording, b: ToolRecording): number {
  return a.recorded_at < b.recorded_at ? 1 : a.recorded_at > b.recorded_at ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0
}
