// A conversation's turns (SPEC §16): the user's messages and the target's answers, in the order
// they were said. A target that runs its own conversation gives them with its answer; digline's
// conversation step (src/driver/conversation-step.ts) builds them from scripted or simulated users.
// Scorers see them whole; the document keeps what was said only when the run records responses.
import type { AnswerStep, TargetStep } from './steps.js'

interface TurnUsage {
  input_tokens: number
  output_tokens: number
}

/** One message of a conversation, as a target gives it. */
export interface TargetTurn {
  /** Who spoke: the user (scripted or simulated) or the target. */
  role: 'user' | 'assistant'
  /** What was said: the user's text, or the target's output for that turn. */
  content?: unknown
  /** Tokens this message cost: the target's call for an answer, the simulated user's for a user turn. */
  usage?: TurnUsage
  latency_ms?: number
  /** The steps the target took to answer (an agent's model and tool calls); assistant turns only. */
  steps?: readonly TargetStep[]
}

/** A turn as the document and the scorers hold it. */
export interface AnswerTurn {
  role: 'user' | 'assistant'
  content?: unknown
  usage?: TurnUsage
  latency_ms?: number
  steps?: AnswerStep[]
}

/** The steps of every assistant turn, in order: the conversation's whole trajectory. */
export function stepsOfTurns(turns: readonly AnswerTurn[] | undefined): AnswerStep[] {
  const out: AnswerStep[] = []
  for (const turn of turns ?? []) if (turn.steps !== undefined) out.push(...turn.steps)
  return out
}

/** The text of a turn as the other side reads it: a string as it is, anything else as JSON. */
export function turnText(content: unknown): string {
  if (typeof content === 'string') return content
  return JSON.stringify(content) ?? ''
}

/**
 * A sample's steps wherever they are kept: its own `steps`, or its conversation's turns' steps in
 * order; undefined when it reported none (the comparison's trajectory gates then leave it out).
 */
export function sampleStepsOf(sample: { steps?: AnswerStep[] | undefined; turns?: AnswerTurn[] | undefined }): AnswerStep[] | undefined {
  if (sample.steps !== undefined) return sample.steps
  if (sample.turns === undefined || !sample.turns.some((t) => t.steps !== undefined)) return undefined
  return stepsOfTurns(sample.turns)
}
