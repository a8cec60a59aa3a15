// A conversation's turns as the driver takes them from an answer (SPEC §16, ADR 0310): checked
// against the answer shape, the target's usage summed from its turns, and cut down to roles, usage,
// durations and steps when the run does not record responses.
import { usageFrom } from '../document/answer-shape.js'
import { describeNotPlain, findNotPlain } from '../suite/plain-data.js'
import { preview } from '../suite/preview.js'
import type { AnswerTurn } from '../suite/turns.js'
import type { TokenUsage } from '../suite/types.js'
import { checkSteps, stepsForDocument, stepsUsage } from './answer-steps.js'

/** More turns than this in one conversation is taken for a runaway loop, not a conversation. */
export const MAX_TURNS = 1_000

const TURN_WANTED = "{ role: 'user' | 'assistant', content?, usage?, latency_ms?, steps? }"

/** The turns as the scorers see them, or why they are malformed. */
export function checkTurns(raw: unknown, record: boolean): AnswerTurn[] | string {
  if (!Array.isArray(raw)) return `turns must be a list of ${TURN_WANTED}, got ${preview(raw)}`
  if (raw.length > MAX_TURNS) return `turns holds ${raw.length} turns, more than ${MAX_TURNS}`
  const out = new Array<AnswerTurn>(raw.length)
  for (let i = 0; i < raw.length; i++) {
    const turn = checkTurn(raw[i], i, record)
    if (typeof turn === 'string') return turn
    out[i] = turn
  }
  return out
}

function checkTurn(raw: unknown, i: number, record: boolean): AnswerTurn | string {
  const where = `turns[${i}]`
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return `${where} must be ${TURN_WANTED}, got ${preview(raw)}`
  const turn = raw as Record<string, unknown>
  if (turn.role !== 'user' && turn.role !== 'assistant') return `${where}.role must be 'user' or 'assistant', got ${preview(turn.role)}`
  const out: AnswerTurn = { role: turn.role }
  if (turn.content !== undefined) {
    if (record) {
      const offence = findNotPlain(turn.content, ['turns', i, 'content'])
      if (offence !== undefined) return `the answer cannot be recorded (recordResponses is true): ${describeNotPlain(offence)}`
    }
    out.content = turn.content
  }
  if (turn.usage !== undefined) {
    const usage = usageFrom(turn.usage)
    if (typeof usage === 'string') return `${where}.usage must be ${usage}, got ${preview(turn.usage)}`
    out.usage = usage
  }
  if (turn.latency_ms !== undefined) {
    if (typeof turn.latency_ms !== 'number' || !Number.isFinite(turn.latency_ms) || turn.latency_ms < 0)
      return `${where}.latency_ms must be a duration in ms ≥ 0, got ${preview(turn.latency_ms)}`
    out.latency_ms = Math.round(turn.latency_ms)
  }
  if (turn.steps !== undefined) {
    if (turn.role !== 'assistant') return `${where}.steps: only the target's (assistant) turns have steps`
    const steps = checkSteps(turn.steps, record)
    if (typeof steps === 'string') return `${where}.${steps}`
    const summed = stepsUsage(steps)
    if (summed !== undefined) {
      if (out.usage !== undefined && (out.usage.input_tokens !== summed.input_tokens || out.usage.output_tokens !== summed.output_tokens)) {
        return `${where}.usage ${preview(out.usage)} is not the sum of its model calls' usage ${preview(summed)}; give one or make them agree`
      }
      out.usage = summed
    }
    out.steps = steps
  }
  return out
}

/** The target's usage over the conversation: the sum of its turns' usage, or undefined when none reported any. */
export function turnsUsage(turns: readonly AnswerTurn[]): TokenUsage | undefined {
  let sum: TokenUsage | undefined
  for (const turn of turns) {
    if (turn.role !== 'assistant' || turn.usage === undefined) continue
    sum ??= { input_tokens: 0, output_tokens: 0 }
    sum.input_tokens += turn.usage.input_tokens
    sum.output_tokens += turn.usage.output_tokens
  }
  return sum
}

/** The turns as the document holds them: what was said only when the run records responses. */
export function turnsForDocument(turns: readonly AnswerTurn[], record: boolean): AnswerTurn[] {
  return turns.map((turn) => {
    const out: AnswerTurn = { role: turn.role }
    if (record && turn.content !== undefined) out.content = asJson(turn.content)
    if (turn.usage !== undefined) out.usage = { ...turn.usage }
    if (turn.latency_ms !== undefined) out.latency_ms = turn.latency_ms
    if (turn.steps !== undefined) out.steps = stepsForDocument(turn.steps, record)
    return out
  })
}

function asJson(value: unknown): unknown {
  const text = JSON.stringify(value)
  return text === undefined ? null : (JSON.parse(text) as unknown)
}
