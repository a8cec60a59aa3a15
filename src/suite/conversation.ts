// A suite whose cases are conversations (SPEC §16, ADR 0311): each case's input scripts the user's
// turns, or gives a simulated user its persona and goal. What a case's input may be, the simulated
// user a suite declares, and the refusals of both before any call.
import { InvalidSuiteError } from './errors.js'
import type { AnswerTurn } from './turns.js'

// Written out here, as suite/types.ts's JsonObject and TokenUsage: types.ts imports this module.
type JsonObject = Record<string, unknown>
interface TokenUsage {
  input_tokens: number
  output_tokens: number
}

/** The simulated user's name among the judges: its observed model and its price are keyed by it. */
export const SIMULATED_USER = 'simulated_user'

/** How many answers a simulated user's conversation may take when neither the user nor the case says. */
export const DEFAULT_MAX_TURNS = 10

/** The most user turns any conversation may have. */
export const MAX_CONVERSATION_TURNS = 200

/** What a simulated user says next. */
export interface SimulatedUserReply {
  /** The user's message ('' when it only ends the conversation). */
  text: string
  /** The user ends the conversation with this message: the target is not asked again. */
  done: boolean
  /** The model id the provider reported (pinned for the run, as a judge's). */
  model?: string
  usage?: TokenUsage
}

export interface SimulatedUserTurnArgs {
  persona: string
  goal: string
  /** The conversation so far, whole. */
  turns: readonly AnswerTurn[]
  signal: AbortSignal
}

/** A model playing the user: simulatedUser() from 'digline/models' builds one on a chat model. */
export interface SimulatedUser {
  /** Its declared configuration (model, turn limit, stop, prompt template): judge_config.simulated_user, so in config_hash. */
  readonly config: JsonObject
  /** The most answers a conversation may take (a case's `maxTurns` may lower or raise it). */
  readonly maxTurns: number
  next(args: SimulatedUserTurnArgs): Promise<SimulatedUserReply>
}

export interface ConversationOptions {
  /** Plays the user of cases whose input is `{ persona?, goal, maxTurns? }`. */
  user?: SimulatedUser
}

/** A case's conversation, read from its input. */
export type ConversationPlan = { kind: 'scripted'; script: readonly string[] } | { kind: 'simulated'; persona: string; goal: string; maxTurns: number | undefined }

/** The case's conversation, or what is wrong with its input. */
export function conversationOf(input: unknown): ConversationPlan | string {
  const wanted = 'must be { script: [user messages…] } or { persona?, goal, maxTurns? } in a suite with `conversation`'
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return wanted
  const { script, persona, goal, maxTurns } = input as Record<string, unknown>
  if (script !== undefined) {
    if (!Array.isArray(script) || script.length === 0 || !script.every((m) => typeof m === 'string' && m !== '')) return 'script must be a non-empty list of non-empty strings'
    if (script.length > MAX_CONVERSATION_TURNS) return `script has ${script.length} messages, more than ${MAX_CONVERSATION_TURNS}`
    if (goal !== undefined || persona !== undefined) return 'has both a script and a simulated user (persona, goal); give one'
    return { kind: 'scripted', script: script as string[] }
  }
  if (typeof goal !== 'string' || goal.trim() === '') return wanted
  if (persona !== undefined && typeof persona !== 'string') return 'persona must be a string'
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && (maxTurns as number) >= 1 && (maxTurns as number) <= MAX_CONVERSATION_TURNS)) {
    return `maxTurns must be an integer in 1..${MAX_CONVERSATION_TURNS}`
  }
  return { kind: 'simulated', persona: persona ?? '', goal, maxTurns: maxTurns as number | undefined }
}

/**
 * The most model calls one sample of a conversation case may make before its agents' extra steps:
 * each target turn, and each simulated-user message (one before each answer; a user who ends the
 * conversation does so in place of an answer).
 * The budget reserves them when the case starts, so a calls budget is not passed by a conversation.
 */
export function conversationCallsOf(input: unknown, user: { maxTurns: number } | undefined): number {
  const plan = conversationOf(input)
  if (typeof plan === 'string') return 1
  if (plan.kind === 'scripted') return plan.script.length
  return 2 * (plan.maxTurns ?? user?.maxTurns ?? 1)
}

/** The suite's conversation option checked, and every case's input with it; refused before any call. */
export function resolveConversation(
  option: unknown,
  cases: readonly { id: string; input: unknown }[],
  scorerNames: readonly string[],
  suite: string,
): ConversationOptions | undefined {
  if (option === undefined) return undefined
  if (option === null || typeof option !== 'object' || Array.isArray(option)) refuse(['conversation'], 'must be { user? }', suite)
  const { user } = option as { user?: unknown }
  if (user !== undefined) {
    const u = user as Partial<SimulatedUser> | null
    if (u === null || typeof u !== 'object' || typeof u.next !== 'function' || u.config === null || typeof u.config !== 'object' || Array.isArray(u.config)) {
      refuse(['conversation', 'user'], "must come from simulatedUser() in 'digline/models' (or be { config, maxTurns, next })", suite)
    }
    if (!(Number.isInteger(u.maxTurns) && u.maxTurns! >= 1 && u.maxTurns! <= MAX_CONVERSATION_TURNS)) {
      refuse(['conversation', 'user', 'maxTurns'], `must be an integer in 1..${MAX_CONVERSATION_TURNS}`, suite)
    }
    if (scorerNames.includes(SIMULATED_USER))
      refuse(['scorers'], `has a scorer named ${JSON.stringify(SIMULATED_USER)}, the name the simulated user's model is kept under; rename the scorer`, suite)
  }
  cases.forEach((c, i) => {
    const plan = conversationOf(c.input)
    if (typeof plan === 'string') refuse(['cases', i, 'input'], `(case ${JSON.stringify(c.id)}) ${plan}`, suite)
    if (plan.kind === 'simulated' && user === undefined) {
      refuse(
        ['cases', i, 'input'],
        `(case ${JSON.stringify(c.id)}) asks for a simulated user, and the suite's conversation has no \`user\`: add conversation: { user: simulatedUser({ model }) }`,
        suite,
      )
    }
  })
  return user === undefined ? {} : { user: user as SimulatedUser }
}

function refuse(path: readonly (string | number)[], message: string, suite: string): never {
  const where = path.map(String).join('.')
  throw new InvalidSuiteError(`suite ${JSON.stringify(suite)} was refused: ${where} ${message}`, `Fix ${where} in the suite file, then run \`vitest run\` again.`, [...path])
}
