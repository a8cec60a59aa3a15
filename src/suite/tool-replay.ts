// Tool replay (SPEC §16, docs/adr/0320): an agent's tool results recorded on one run and served on
// later runs. A recording is filed per case under a key of digests: the tool's name, its declared
// shape (description, parameters, version), its arguments and which occurrence of that same call
// it was within one answer. Arguments enter only as a sha256 digest, so no secret an argument
// carries is in a key; what a recording keeps of the call is its outcome (the result, or the error).
import { PathRefusedError } from './errors.js'
import { canonicalJson, sha256Hex } from './hashing.js'

export const TOOL_REPLAY_MODES = ['off', 'record', 'replay', 'strict'] as const
/**
 * off: tools run, nothing is kept. record: tools run, every call's outcome is recorded (replacing an
 * earlier one). replay: a recorded call is served without running the tool; an unrecorded one runs
 * and is recorded. strict: a recorded call is served; an unrecorded one errors its case.
 */
export type ToolReplayMode = (typeof TOOL_REPLAY_MODES)[number]

/** The parts of a recording's key, each a sha256 hex digest except the tool's name and the occurrence. */
export interface ToolCallParts {
  tool: string
  /** sha256 over the tool's declared shape (toolVersionDigest). */
  version: string
  /** sha256 over the canonical JSON of the arguments. */
  arguments: string
  /** 0 for the first call of this tool with these arguments in one answer, 1 for the second, … */
  occurrence: number
  /** In a conversation, the target's turn that made the call (0 for its first answer); absent otherwise (ADR 0381). */
  turn?: number
}

export const TOOL_CALL_PARTS = ['tool', 'version', 'arguments', 'occurrence', 'turn'] as const satisfies readonly (keyof ToolCallParts)[]

/** What a tool call came to: its result (plain JSON), or the message of its error. */
export type ToolOutcome = { result: unknown } | { error: string }

/** One recorded tool call. */
export interface ToolRecording {
  /** 64 hex: sha256 over the case id and the parts; the recording's address. */
  key: string
  case_id: string
  parts: ToolCallParts
  /** The key of the run that recorded it: deleting that run removes the recording. */
  run: string
  outcome: ToolOutcome
  /** ISO-8601 UTC with microseconds. */
  recorded_at: string
}

/** A tool as its recordings know it: what the target config declares of it, and a version its author names. */
export function toolVersionDigest(declared: unknown): string {
  return sha256Hex(canonicalJson({ declared: declared ?? null }))
}

export function toolArgumentsDigest(args: unknown): string {
  return sha256Hex(canonicalJson({ arguments: args ?? null }))
}

export function toolRecordingKey(caseId: string, parts: ToolCallParts): string {
  return sha256Hex(canonicalJson({ tool_replay: 1, case_id: caseId, ...parts }))
}

export function isToolRecordingKey(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)
}

export function assertToolRecordingKey(key: unknown): asserts key is string {
  if (isToolRecordingKey(key)) return
  throw new PathRefusedError(
    `refused the tool recording key ${JSON.stringify(String(key).slice(0, 80))}: a recording key is 64 lowercase hex digits`,
    'Pass the key as toolRecordingKey(caseId, parts) computes it.',
    ['key'],
  )
}

/** Refuses a recording filed under a key that is not the key of its own parts, or with a tool name that is not one. */
export function assertRecordingOfItsParts(recording: ToolRecording): void {
  if (!/^[A-Za-z0-9_.:-]{1,128}$/.test(recording.parts.tool))
    throw new PathRefusedError(
      `refused a tool recording of tool ${JSON.stringify(recording.parts.tool.slice(0, 80))}: a tool name is 1 to 128 letters, digits, _ . : or -`,
      'Name the tool as the agent declares it.',
      ['tool'],
    )
  if (toolRecordingKey(recording.case_id, recording.parts) !== recording.key)
    throw new PathRefusedError(
      `refused a tool recording filed under ${recording.key}: it is not the key of its own parts`,
      'File the recording under toolRecordingKey(case_id, parts).',
      ['key'],
    )
}

/** Tool replay for one answer, as the driver hands it to the target (ctx.tools) and checks it after. */
export interface SampleToolCalls {
  call(name: string, args: unknown, execute: () => unknown, declared?: unknown): Promise<unknown>
  /** Why the first call that strict replay would not serve was refused, once one was made. */
  refusal(): string | undefined
}

/** The launch's tool replay: one SampleToolCalls per answer asked for; a conversation asks one per turn, naming it. */
export type ToolReplayer = (caseId: string, sample: number, signal: AbortSignal, turn?: number) => SampleToolCalls

/**
 * Thrown inside the target by a call strict replay refuses. The agent adapters let it through (a
 * failing tool is otherwise reported to the model), and the driver errors the case with its message
 * even when a target of the team's own catches it.
 */
export class UnrecordedToolCallError extends Error {
  override readonly name = 'UnrecordedToolCallError'
}
