// What an LLM judge is asked, and how its reply is read. The template's version is part of the
// judge's config, so a change here moves config_hash.
import type { z } from 'zod'
import { lazySchema } from '../suite/zod-on-demand.js'
import type { ChatMessage } from '../models/chat-model.js'
import type { JsonObject } from '../suite/types.js'
import { preview } from './reason-text.js'
import { describeZodError } from '../suite/issue-sentence.js'

export const JUDGE_TEMPLATE = 'digline-judge-v1'

export interface JudgeScale {
  min: number
  max: number
}

export interface Judgement {
  reasoning: string
  score: number
}

/** A reply the judge gave that cannot be read as a judgement: the case errors (cause scorer). */
export class JudgeReplyError extends Error {
  override readonly name = 'JudgeReplyError'
}

export function judgementSchema(scale: JudgeScale): z.ZodType<Judgement> {
  return lazySchema((z) => z.object({ reasoning: z.string(), score: z.number().int().min(scale.min).max(scale.max) }).strict())
}

/** The same shape as JSON Schema, in the strict form structured outputs accept. */
export function judgementJsonSchema(scale: JudgeScale): JsonObject {
  const scores = Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i)
  return {
    type: 'object',
    properties: { reasoning: { type: 'string' }, score: { type: 'integer', enum: scores } },
    required: ['reasoning', 'score'],
    additionalProperties: false,
  }
}

export function judgeMessages(args: { rubric: string; scale: JudgeScale; input: unknown; output: unknown; expected: unknown }): ChatMessage[] {
  const { rubric, scale } = args
  const system = [
    'You are an evaluator. You grade one response of an AI system against a rubric.',
    `Give an integer score from ${scale.min} (worst) to ${scale.max} (best).`,
    '',
    'Rubric:',
    rubric.trim(),
    '',
    `Reply with a JSON object and nothing else: {"reasoning": "<one or two sentences>", "score": <integer ${scale.min}..${scale.max}>}`,
  ].join('\n')
  const parts = [`Input:\n${block(args.input)}`]
  if (args.expected !== undefined) parts.push(`Reference answer:\n${block(args.expected)}`)
  parts.push(`Response to grade:\n${block(args.output)}`)
  return [
    { role: 'system', content: system },
    { role: 'user', content: parts.join('\n\n') },
  ]
}

/**
 * The judgement in the reply, or a JudgeReplyError saying what is wrong with it. The reply is quoted
 * in the error only when `quote` (the run records answers): a judge's reply may repeat the answer.
 */
export function readJudgement(text: string, schema: z.ZodType<Judgement>, quote = true): Judgement {
  return readJsonReply(text, schema, quote, 'a judgement')
}

/** Any judge's reply read as JSON and checked against `schema` (`what` names the shape in the error). */
export function readJsonReply<T>(text: string, schema: z.ZodType<T>, quote: boolean, what: string): T {
  const shown = quote ? `: ${preview(text, 120)}` : ' (the reply is not quoted, as answers are not recorded)'
  const body = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    throw new JudgeReplyError(`the judge's reply is not valid JSON${shown}`)
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    throw new JudgeReplyError(`the judge's reply is not ${what} (${describeZodError(parsed.error, value, 'reply', schema, quote).sentence})${shown}`)
  }
  return parsed.data
}

/** A value as a judge reads it: a string as it is, anything else as indented JSON. */
export function block(value: unknown): string {
  if (typeof value === 'string') return value
  return JSON.stringify(value, null, 2) ?? String(value)
}
