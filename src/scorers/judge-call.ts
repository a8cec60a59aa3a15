// One call to a judge model for the scorer library's judges (factuality, closed-QA, relevance, the
// RAG set): the prompt, a JSON reply of a known shape read or refused, and what the call cost.
import type { z } from 'zod'
import type { ChatModel } from '../models/chat-model.js'
import { invalid } from '../models/model-options.js'
import { InvalidSuiteError } from '../suite/errors.js'
import type { JsonObject, ScoreResult, TokenUsage } from '../suite/types.js'
import { readJsonReply } from './judge-prompt.js'

export interface JudgePrompt<T> {
  /** The prompt's version, e.g. "digline-factuality-v1": in the scorer's config, so in config_hash. */
  template: string
  system: string
  /** The reply's shape: JSON Schema for structured output, zod for reading it, a phrase for errors. */
  schemaName: string
  jsonSchema: JsonObject
  reply: z.ZodType<T>
  what: string
}

export interface JudgeAnswer<T> {
  value: T
  model: string | undefined
  usage: TokenUsage | undefined
}

/** Asks the judge; a reply that is not the prompt's shape throws JudgeReplyError (the case errors, cause scorer). */
export async function askJudge<T>(model: ChatModel, prompt: JudgePrompt<T>, user: string, signal: AbortSignal | undefined, recorded: boolean | undefined): Promise<JudgeAnswer<T>> {
  const reply = await model.complete({
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: user },
    ],
    json: { name: prompt.schemaName, schema: prompt.jsonSchema },
    signal,
  })
  return { value: readJsonReply(reply.text, prompt.reply, recorded === true, prompt.what), model: reply.model, usage: reply.usage }
}

/** The judge's score as a result: its pass at `passAt`, its reason, and the call's model and usage. */
export function judged(answer: JudgeAnswer<unknown>, score: number, passAt: number, reason: string): ScoreResult {
  const result: ScoreResult = { pass: score >= passAt - 1e-12, score, reason }
  if (answer.model !== undefined) result.model = answer.model
  if (answer.usage !== undefined) result.usage = answer.usage
  return result
}

export function requireJudgeModel(model: unknown, owner: string): ChatModel {
  const m = model as ChatModel | null | undefined
  if (m === null || typeof m !== 'object' || typeof m.complete !== 'function') throw invalid(owner, 'model', "must come from openaiModel() or aiSdkModel() in 'digline/models'")
  return m
}

/** A share in 0..1 that a score must reach, or the default. */
export function unitOption(value: unknown, fallback: number, owner: string, name: string): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw refuseOption(owner, name, 'must be a number in 0..1')
  return value
}

/** A scorer's option that is refused where the suite file creates the scorer. */
export function refuseOption(owner: string, field: string, problem: string): InvalidSuiteError {
  return new InvalidSuiteError(`${owner}: ${field} ${problem}`, `Fix ${field} where the suite file creates the scorer (see docs/scorers.md), then run \`vitest run\` again.`, [
    'scorers',
  ])
}

const REASONING_CHARS = 400

/** The judge's own words, kept only with the answers (they may repeat the answer), cut to a length. */
export function keptWords(text: string, recorded: boolean | undefined): string {
  if (recorded !== true) return "the judge's reasoning is not kept, as answers are not recorded"
  const words = text.trim()
  return words.length > REASONING_CHARS ? `${words.slice(0, REASONING_CHARS - 1)}…` : words
}

/** Two decimals, for a score inside a sentence. */
export const figure = (value: number): string => value.toFixed(2)
