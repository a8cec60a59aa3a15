import { lazySchema } from '../suite/zod-on-demand.js'
import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { askJudge, figure, judged, keptWords, requireJudgeModel, unitOption, type JudgePrompt } from './judge-call.js'
import { block } from './judge-prompt.js'

export interface FactualityOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** The lowest score that passes (default 0.5: a superset or better passes, a subset does not). */
  passAt?: number
  /** Score one field of a structured answer, e.g. "summary"; in the config. */
  path?: string
  /** The scorer's name in results (default "factuality"). */
  name?: string
}

export const FACTUALITY_TEMPLATE = 'digline-factuality-v1'

/** How each of the judge's choices scores: equal facts score 1, a contradiction 0. */
export const FACTUALITY_SCORES = { subset: 0.4, superset: 0.6, same: 1, disagrees: 0, immaterial: 1 } as const
type Choice = keyof typeof FACTUALITY_SCORES
const CHOICES = Object.keys(FACTUALITY_SCORES) as Choice[]

const prompt: JudgePrompt<{ reasoning: string; choice: Choice }> = {
  template: FACTUALITY_TEMPLATE,
  system: [
    'You compare the facts of a submitted answer with an expert answer to the same question.',
    'Ignore style, wording, grammar and punctuation; judge the factual content only.',
    'Choose exactly one:',
    '- "subset": the submission is a subset of the expert answer and fully consistent with it.',
    '- "superset": the submission is a superset of the expert answer and fully consistent with it.',
    '- "same": the submission contains the same details as the expert answer.',
    '- "disagrees": the submission and the expert answer contradict each other.',
    '- "immaterial": they differ, but the differences do not matter for factuality.',
    '',
    'Reply with a JSON object and nothing else: {"reasoning": "<one or two sentences>", "choice": "<one of the five>"}',
  ].join('\n'),
  schemaName: 'factuality',
  jsonSchema: {
    type: 'object',
    properties: { reasoning: { type: 'string' }, choice: { type: 'string', enum: CHOICES } },
    required: ['reasoning', 'choice'],
    additionalProperties: false,
  },
  reply: lazySchema((z) => z.object({ reasoning: z.string(), choice: z.enum(CHOICES as [Choice, ...Choice[]]) }).strict()),
  what: 'a factuality choice',
}

/**
 * Asks the judge whether the output states the same facts as the case's expected answer: a subset,
 * a superset, the same, a contradiction, or a difference that does not matter (autoevals' Factuality
 * scale). Needs `expected`.
 */
export function factuality(options: FactualityOptions): ScorerObject {
  const owner = 'scorers.factuality()'
  const model = requireJudgeModel(options?.model, owner)
  const passAt = unitOption(options.passAt, 0.5, owner, 'passAt')
  const scorer: ScorerObject = {
    name: options.name ?? 'factuality',
    config: { model: model.config, template: FACTUALITY_TEMPLATE, pass_at: passAt },
    passAt,
    async score({ input, output, expected, signal, recorded }) {
      if (expected === undefined) throw new Error('the case declares no expected answer to check the facts against')
      const user = `Question:\n${block(input)}\n\nExpert answer:\n${block(expected)}\n\nSubmission:\n${block(output)}`
      const answer = await askJudge(model, prompt, user, signal, recorded)
      const { choice, reasoning } = answer.value
      const score = FACTUALITY_SCORES[choice]
      return judged(answer, score, passAt, `${choice} (${figure(score)}): ${keptWords(reasoning, recorded)}`)
    },
  }
  return withPath(scorer, options.path, owner)
}
