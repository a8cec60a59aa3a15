// Tool replay as one launch runs it (SPEC §16, docs/adr/0320): for each answer the target is asked
// for, a SampleToolCalls that keys every tool call (tool, declared shape, arguments digest, which
// occurrence in the answer), serves a recorded outcome in replay and strict modes, runs and records
// the call otherwise, and under strict refuses a call never recorded, saying why no recording fit.
import type { Store } from '../../store/contract.js'
import { redactor } from '../../models/redaction.js'
import { createdAtNow } from '../../suite/keys.js'
import { describeNotPlain, findNotPlain } from '../../suite/plain-data.js'
import { preview } from '../../suite/preview.js'
import {
  toolArgumentsDigest,
  toolRecordingKey,
  toolVersionDigest,
  UnrecordedToolCallError,
  type SampleToolCalls,
  type ToolCallParts,
  type ToolOutcome,
  type ToolRecording,
  type ToolReplayer,
  type ToolReplayMode,
} from '../../suite/tool-replay.js'
import type { ResolvedSuite } from '../../suite/types.js'

const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/

export interface ToolTally {
  /** Calls served from a recording, without running the tool. */
  served: number
  /** Calls the tool ran for. */
  ran: number
  /** Outcomes filed as recordings. */
  recorded: number
  /** Calls strict replay refused. */
  refused: number
}

export interface ToolReplay {
  mode: Exclude<ToolReplayMode, 'off'>
  forSample: ToolReplayer
  tally: ToolTally
}

export interface ToolReplayScope {
  tenant: string
  suite: Pick<ResolvedSuite, 'name' | 'recordResponses'>
  /** The run that records: deleting it removes its recordings. */
  key: string
}

export function openToolReplay(store: Store, scope: ToolReplayScope, mode: Exclude<ToolReplayMode, 'off'>, say: (line: string) => void): ToolReplay {
  const { tenant, key: run } = scope
  const suite = scope.suite.name
  const tally: ToolTally = { served: 0, ran: 0, recorded: 0, refused: 0 }
  const redact = redactor([])
  const complaints = new Set<string>()
  const complain = (what: string, line: string): void => {
    if (complaints.has(what)) return
    complaints.add(what)
    say(`digline ${suite}: tool replay ${line}`)
  }

  const keep = async (caseId: string, parts: ToolCallParts, outcome: ToolOutcome): Promise<void> => {
    const recording: ToolRecording = { key: toolRecordingKey(caseId, parts), case_id: caseId, parts, run, outcome, recorded_at: createdAtNow() }
    try {
      await store.recordToolCall(tenant, suite, recording)
      tally.recorded++
    } catch (error) {
      complain('store', `could not record a call (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); the run goes on without it`)
    }
  }

  const forSample: ToolReplayer = (caseId, _sample, signal, turn) => {
    const seen = new Map<string, number>()
    let refused: string | undefined
    const refuse = (message: string): never => {
      refused ??= message
      tally.refused++
      throw new UnrecordedToolCallError(refused)
    }
    const calls: SampleToolCalls = {
      refusal: () => refused,
      async call(name, args, execute, declared) {
        if (refused !== undefined) refuse(refused)
        if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw new Error(`tool replay: ${preview(name)} is not a tool name (1 to 128 letters, digits, _ . : or -)`)
        let parts: ToolCallParts
        try {
          const version = toolVersionDigest(declared)
          const argumentsDigest = toolArgumentsDigest(args)
          const id = `${name}\n${version}\n${argumentsDigest}`
          const occurrence = seen.get(id) ?? 0
          seen.set(id, occurrence + 1)
          parts = { tool: name, version, arguments: argumentsDigest, occurrence, ...(turn === undefined ? {} : { turn }) }
        } catch (error) {
          // Arguments (or a declared shape) that are not plain JSON have no key: such a call is never recorded.
          const why = `tool ${JSON.stringify(name)} was called with arguments that are not plain JSON, so no recording can be keyed by them`
          if (mode === 'strict') refuse(`strict tool replay refused a call: ${why}`)
          complain(`unkeyed ${name}`, `${why}; it runs every time (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`)
          tally.ran++
          return execute()
        }
        if (mode !== 'record') {
          const recording = await store.toolRecording(tenant, suite, caseId, toolRecordingKey(caseId, parts))
          if (recording !== undefined) {
            tally.served++
            if ('error' in recording.outcome) throw new Error(recording.outcome.error)
            return structuredClone(recording.outcome.result)
          }
          if (mode === 'strict') refuse(await refusalOf(store, scope, caseId, parts, args))
        }
        tally.ran++
        let result: unknown
        try {
          result = await execute()
        } catch (error) {
          // A tool stopped with the run did not fail: its error is not what a later run should be served.
          if (!signal.aborted) await keep(caseId, parts, { error: redact(error instanceof Error ? error.message : String(error)) })
          throw error
        }
        const recordable = recordableResult(result, redact)
        if (typeof recordable === 'string') complain(`result ${name}`, `could not record a result of tool ${JSON.stringify(name)}: ${recordable}; that call runs again next time`)
        else await keep(caseId, parts, recordable)
        return result
      },
    }
    return calls
  }
  return { mode, forSample, tally }
}

/** The outcome a result is recorded as (its JSON, with the environment's secrets redacted), or why it cannot be. */
function recordableResult(result: unknown, redact: (text: string) => string): ToolOutcome | string {
  if (result === undefined) return { result: null }
  const offence = findNotPlain(result, ['result'])
  if (offence !== undefined) return describeNotPlain(offence)
  const text = JSON.stringify(result)
  const redacted = redact(text)
  if (redacted === text) return { result: JSON.parse(text) as unknown }
  try {
    return { result: JSON.parse(redacted) as unknown }
  } catch {
    return 'it holds a secret of the environment that could not be redacted from it'
  }
}

/** The sentence a strict refusal errors the case with: the call (its arguments only when the suite records responses) and why no recording fit. */
async function refusalOf(store: Store, scope: ToolReplayScope, caseId: string, parts: ToolCallParts, args: unknown): Promise<string> {
  const recordings = await store.toolRecordingsOf(scope.tenant, scope.suite.name, caseId)
  const shown = scope.suite.recordResponses
    ? `with arguments ${preview(args, 200)}`
    : `with arguments of digest ${parts.arguments.slice(0, 12)} (quoted only when the suite records responses)`
  const answer = parts.turn === undefined ? 'this answer' : 'that turn'
  const call = `tool ${JSON.stringify(parts.tool)} ${shown}${parts.turn === undefined ? '' : ` in turn ${parts.turn}`}${parts.occurrence === 0 ? '' : `, call ${parts.occurrence + 1} with these arguments in ${answer}`}`
  return `strict tool replay refused a call never recorded: ${call}. ${whyNotRecorded(recordings, parts, caseId)}. To record it, run the suite with DIGLINE_TOOL_REPLAY=record (or replay, which records only what is missing).`
}

/** Why no recording of the case was the call's: the nearest recording and the part that differs (as `digline cache why` names a changed part). */
export function whyNotRecorded(recordings: readonly ToolRecording[], parts: ToolCallParts, caseId: string): string {
  if (recordings.length === 0) return `Nothing is recorded for case ${caseId}`
  const sameTool = recordings.filter((r) => r.parts.tool === parts.tool)
  if (sameTool.length === 0) return `Case ${caseId} has ${count(recordings.length, 'recording')}, none of tool ${JSON.stringify(parts.tool)}`
  const sameArgs = sameTool.filter((r) => r.parts.arguments === parts.arguments)
  if (sameArgs.length === 0) return `Tool ${JSON.stringify(parts.tool)} was recorded for case ${caseId} only with other arguments (${count(sameTool.length, 'recording')})`
  const sameTurn = sameArgs.filter((r) => r.parts.turn === parts.turn)
  if (sameTurn.length === 0) {
    const turns = [...new Set(sameArgs.map((r) => (r.parts.turn === undefined ? 'outside a conversation' : `turn ${r.parts.turn}`)))].sort().join(', ')
    return `Tool ${JSON.stringify(parts.tool)} was recorded with these arguments for case ${caseId} only in another turn (${turns}), and this call is ${parts.turn === undefined ? 'outside a conversation' : `in turn ${parts.turn}`}`
  }
  const sameShape = sameTurn.filter((r) => r.parts.version === parts.version)
  if (sameShape.length === 0)
    return `Tool ${JSON.stringify(parts.tool)} was recorded with these arguments (at ${sameTurn[0]!.recorded_at}) when it was declared otherwise: its description, parameters or version changed since`
  const most = Math.max(...sameShape.map((r) => r.parts.occurrence)) + 1
  return `Tool ${JSON.stringify(parts.tool)} was recorded with these arguments ${count(most, 'time')} in ${parts.turn === undefined ? 'one answer' : `turn ${parts.turn}`}, and this is call ${parts.occurrence + 1}`
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** What the launch says it will do with tools, before the first call. */
export function toolReplayClause(mode: Exclude<ToolReplayMode, 'off'>, recorded: boolean): string {
  const what = {
    record: 'every tool call runs and its outcome is recorded',
    replay: 'recorded tool calls are served without running the tool; the others run and are recorded',
    strict: 'recorded tool calls are served without running the tool; a call never recorded errors its case',
  }[mode]
  const kept =
    mode === 'strict'
      ? ''
      : `; recordings keep tool results in the store${recorded ? '' : ', though this suite records no responses'} (deleting the run that recorded them removes them)`
  return `; tool replay ${mode}: ${what}${kept}`
}

/** What the launch says once it has run: how many calls were served, ran and recorded. */
export function toolTallyLine(suite: string, replay: ToolReplay): string {
  const { served, ran, recorded, refused } = replay.tally
  return `digline ${suite}: tool replay ${replay.mode}: ${count(served, 'call')} served from recordings, ${ran} ran, ${recorded} recorded${refused === 0 ? '' : `, ${refused} refused`}`
}
