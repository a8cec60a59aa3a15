import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { invalid } from '../models/model-options.js'
import { judgeMessages, judgementJsonSchema, judgementSchema, JUDGE_TEMPLATE, readJudgement, type JudgeScale } from './judge-prompt.js'
import { withPath } from './field-path.js'

export interface LlmJudgeOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** What a good response is; the judge scores against it. Part of the judge config. */
  rubric: string
  /** The integer scale the judge scores on (default { min: 1, max: 5 }). */
  scale?: JudgeScale
  /** The lowest score on the scale that passes (default: three quarters of the way up, 4 on 1..5). */
  passAt?: number
  /** The scorer's name in results (default "llm_judge"); names are unique within a suite. */
  name?: string
  /** Score one field of a structured answer (a JSON string or an object), e.g. "total" or "items[0].price"; in the config. */
  path?: string
}

const MAX_STEPS = 100
const REASON_CHARS = 500

/**
 * Asks a model to score the output against a rubric. Its declared config (the model's config, the
 * rubric, the scale, the template) is part of config_hash; the model id the provider reports is
 * pinned for the run like the target's; a reply that is not a judgement errors the case.
 */
export function llmJudge(options: LlmJudgeOptions): ScorerObject {
  const owner = 'scorers.llmJudge()'
  if (options === null || typeof options !== 'object') throw invalid(owner, 'options', 'must be { model, rubric, scale?, passAt?, name? }')
  const { model, rubric } = options
  if (model === null || typeof model !== 'object' || typeof model.complete !== 'function')
    throw invalid(owner, 'model', "must come from openaiModel() or aiSdkModel() in 'digline/models'")
  if (typeof rubric !== 'string' || rubric.trim() === '') throw invalid(owner, 'rubric', 'must be a non-empty string')
  const scale = options.scale ?? { min: 1, max: 5 }
  if (!Number.isInteger(scale.min) || !Number.isInteger(scale.max) || scale.max <= scale.min || scale.max - scale.min > MAX_STEPS) {
    throw invalid(owner, 'scale', `must be integers { min, max } with min < max and at most ${MAX_STEPS} steps`)
  }
  const passAt = options.passAt ?? scale.min + Math.ceil(0.75 * (scale.max - scale.min))
  if (typeof passAt !== 'number' || passAt < scale.min || passAt > scale.max) throw invalid(owner, 'passAt', `must be a score on the scale ${scale.min}..${scale.max}`)
  const name = options.name ?? 'llm_judge'
  const schema = judgementSchema(scale)
  const json = { name: 'judgement', schema: judgementJsonSchema(scale) }
  const normal = (score: number): number => (score - scale.min) / (scale.max - scale.min)

  const scorer: ScorerObject = {
    name,
    config: { model: model.config, rubric, scale: { min: scale.min, max: scale.max }, pass_at: passAt, template: JUDGE_TEMPLATE },
    passAt: normal(passAt),
    async score({ input, output, expected, signal, recorded }) {
      const reply = await model.complete({ messages: judgeMessages({ rubric, scale, input, output, expected }), json, signal })
      const judgement = readJudgement(reply.text, schema, recorded === true)
      // The judge's reasoning is free text that may repeat the answer: it is kept only with the answers.
      const reasoning = judgement.reasoning.trim()
      const said =
        recorded === true
          ? reasoning.length > REASON_CHARS
            ? `${reasoning.slice(0, REASON_CHARS - 1)}…`
            : reasoning
          : "the judge's reasoning is not kept, as answers are not recorded"
      const reason = `${judgement.score}/${scale.max}: ${said}`
      return { pass: judgement.score >= passAt, score: normal(judgement.score), reason, model: reply.model, usage: reply.usage }
    },
  }
  return withPath(scorer, options.path, 'scorers.llmJudge()')
}
