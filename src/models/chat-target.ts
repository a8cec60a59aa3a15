// A chat model as the system under test: each case's input becomes the messages, the reply's text is
// the output, and the model the provider reports and the tokens it counted go back to the driver.
import type { JsonObject, TargetContext, TargetObject } from '../suite/types.js'
import type { ChatMessage, ChatModel } from './chat-model.js'
import { invalid } from './model-options.js'

export interface ChatTargetOptions<I = unknown> {
  /** A system prompt put before every case's messages; declared, so part of the target config. */
  system?: string
  /**
   * Turns a case's input into the messages (default: a string is the user message, a list of
   * messages or `{ messages }` is used as it is, anything else is sent as JSON).
   */
  prompt?: (input: I, ctx: TargetContext) => string | ChatMessage[]
  /** More declared config (a prompt version, say): a function's text is not recorded, so name it here. */
  config?: JsonObject
}

export function chatTarget<I = unknown>(model: ChatModel, options: ChatTargetOptions<I> = {}): TargetObject<I, string> {
  if (model === null || typeof model !== 'object' || typeof model.complete !== 'function') throw invalid('chatTarget()', 'model', 'must come from openaiModel() or aiSdkModel()')
  if (options.system !== undefined && typeof options.system !== 'string') throw invalid('chatTarget()', 'system', 'must be a string')
  if (options.prompt !== undefined && typeof options.prompt !== 'function') throw invalid('chatTarget()', 'prompt', 'must be a function (input, ctx) => string | messages')
  const config: JsonObject = { ...model.config, ...(options.system === undefined ? {} : { system: options.system }), ...options.config }
  return {
    config,
    async ask(input, ctx) {
      const asked = options.prompt === undefined ? messagesOf(input) : options.prompt(input, ctx)
      const messages = typeof asked === 'string' ? [{ role: 'user' as const, content: asked }] : asked
      const reply = await model.complete({
        messages: options.system === undefined ? messages : [{ role: 'system', content: options.system }, ...messages],
        signal: ctx.signal,
      })
      return { output: reply.text, model: reply.model, usage: reply.usage }
    },
  }
}

export function messagesOf(input: unknown): string | ChatMessage[] {
  if (typeof input === 'string') return input
  if (Array.isArray(input) && input.every(isMessage)) return input
  if (input !== null && typeof input === 'object' && Array.isArray((input as { messages?: unknown }).messages)) {
    const messages = (input as { messages: unknown[] }).messages
    if (messages.every(isMessage)) return messages
  }
  return JSON.stringify(input)
}

function isMessage(value: unknown): value is ChatMessage {
  if (value === null || typeof value !== 'object') return false
  const { role, content } = value as Record<string, unknown>
  return (role === 'system' || role === 'user' || role === 'assistant') && typeof content === 'string'
}
