// A chat model playing the user of a conversation (SPEC §16, ADR 0311): it is told a persona and a
// goal, reads the conversation so far, and writes the user's next message, or the stop word when
// the goal is reached or out of reach. Its declared config is part of the judge config.
import type { ChatModel } from './chat-model.js'
import { invalid } from './model-options.js'
import { DEFAULT_MAX_TURNS, MAX_CONVERSATION_TURNS, type SimulatedUser } from '../suite/conversation.js'
import { turnText, type AnswerTurn } from '../suite/turns.js'
import type { JsonObject } from '../suite/types.js'

/** The prompt's version: in the config, so a new prompt is a new config_hash. */
export const SIMULATED_USER_TEMPLATE = 'digline-simulated-user-v1'

export const DEFAULT_STOP = '[DONE]'

export interface SimulatedUserOptions {
  /** The model that plays the user: openaiModel(…) or aiSdkModel(…), or a chat model of your own. */
  model: ChatModel
  /** The most answers a conversation takes (default 10); a case's `maxTurns` overrides it. */
  maxTurns?: number
  /** The word the user writes to end the conversation (default "[DONE]"). */
  stop?: string
  /** More for the user's instructions (a tone, a language); part of the config. */
  instructions?: string
  /** More declared config (a version of your own model's rules, say). */
  config?: JsonObject
}

export function simulatedUser(options: SimulatedUserOptions): SimulatedUser {
  const owner = 'simulatedUser()'
  if (options === null || typeof options !== 'object') throw invalid(owner, 'options', 'must be { model, maxTurns?, stop?, instructions? }')
  const { model } = options
  if (model === null || typeof model !== 'object' || typeof model.complete !== 'function')
    throw invalid(owner, 'model', "must come from openaiModel() or aiSdkModel() in 'digline/models'")
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS
  if (!Number.isInteger(maxTurns) || maxTurns < 1 || maxTurns > MAX_CONVERSATION_TURNS) throw invalid(owner, 'maxTurns', `must be an integer in 1..${MAX_CONVERSATION_TURNS}`)
  const stop = options.stop ?? DEFAULT_STOP
  if (typeof stop !== 'string' || stop.trim() === '') throw invalid(owner, 'stop', 'must be a non-empty string')
  if (options.instructions !== undefined && typeof options.instructions !== 'string') throw invalid(owner, 'instructions', 'must be a string')
  const config: JsonObject = {
    model: model.config,
    max_turns: maxTurns,
    stop,
    template: SIMULATED_USER_TEMPLATE,
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ...options.config,
  }
  return {
    config,
    maxTurns,
    async next({ persona, goal, turns, signal }) {
      const system = systemPrompt(persona, goal, stop, options.instructions)
      const reply = await model.complete({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: transcriptPrompt(turns) },
        ],
        signal,
      })
      const done = reply.text.includes(stop)
      const text = reply.text.split(stop).join('').trim()
      return { text, done, ...(reply.model === undefined ? {} : { model: reply.model }), ...(reply.usage === undefined ? {} : { usage: reply.usage }) }
    },
  }
}

function systemPrompt(persona: string, goal: string, stop: string, instructions: string | undefined): string {
  const lines = [
    'You play a user talking to an AI assistant, so that the assistant can be tested. Stay in character.',
    ...(persona === '' ? [] : [`Persona: ${persona}`]),
    `Goal: ${goal}`,
    'Write only your next message to the assistant, as the user would, and nothing else.',
    `When your goal is reached, or you see it will not be, end your message with ${stop}.`,
    ...(instructions === undefined ? [] : [instructions]),
  ]
  return lines.join('\n')
}

/** The conversation so far, as the user reads it. */
export function transcriptPrompt(turns: readonly AnswerTurn[]): string {
  if (turns.length === 0) return 'The conversation has not started. Write your first message.'
  const lines = turns.map((t) => `${t.role === 'user' ? 'You' : 'Assistant'}: ${turnText(t.content)}`)
  return `The conversation so far:\n\n${lines.join('\n\n')}\n\nWrite your next message.`
}
