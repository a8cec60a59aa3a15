import { lazySchema } from '../suite/zod-on-demand.js'
import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { askJudge, judged, keptWords, refuseOption, requireJudgeModel, type JudgePrompt } from './judge-call.js'
import { block } from './judge-prompt.js'

export interface ClosedQaOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** What the answer must satisfy besides answering the question (e.g. "names one city"); in the config. */
  criteria?: string
  /** Score one field of a structured answer; in the config. */
  path?: string
  /** The scorer's name in results (default "closed_qa"). */
  name?: string
}

export const CLOSED_QA_TEMPLATE = 'digline-closed-qa-v1'

const prompt = (criteria: string | undefined): JudgePrompt<{ reasoning: string; answer: 'yes' | 'no' }> => ({
  template: CLOSED_QA_TEMPLATE,
  system: [
    'You check whether a submitted answer correctly answers a closed question.',
    criteria === undefined ? 'The answer must be correct and must answer the question that was asked.' : `The answer must be correct, and: ${criteria.trim()}`,
    'When a reference answer is given, it is correct.',
    '',
    'Reply with a JSON object and nothing else: {"reasoning": "<one or two sentences>", "answer": "yes" | "no"}',
  ].join('\n'),
  schemaName: 'closed_qa',
  jsonSchema: {
    type: 'object',
    properties: { reasoning: { type: 'string' }, answer: { type: 'string', enum: ['yes', 'no'] } },
    required: ['reasoning', 'answer'],
    additionalProperties: false,
  },
  reply: lazySchema((z) => z.object({ reasoning: z.string(), answer: z.enum(['yes', 'no']) }).strict()),
  what: 'a yes or no',
})

/**
 * Asks the judge a yes/no question: does the output answer the input correctly (and meet the
 * criteria, when given)? The expected value, when the case has one, is shown as the reference.
 */
export function closedQa(options: ClosedQaOptions): ScorerObject {
  const owner = 'scorers.closedQa()'
  const model = requireJudgeModel(options?.model, owner)
  const { criteria } = options
  if (criteria !== undefined && (typeof criteria !== 'string' || criteria.trim() === '')) throw refuseOption(owner, 'criteria', 'must be a non-empty string')
  const asked = prompt(criteria)
  const scorer: ScorerObject = {
    name: options.name ?? 'closed_qa',
    config: { model: model.config, template: CLOSED_QA_TEMPLATE, criteria: criteria ?? null },
    passAt: 1,
    async score({ input, output, expected, signal, recorded }) {
      const parts = [`Question:\n${block(input)}`]
      if (expected !== undefined) parts.push(`Reference answer:\n${block(expected)}`)
      parts.push(`Submission:\n${block(output)}`)
      const answer = await askJudge(model, asked, parts.join('\n\n'), signal, recorded)
      const yes = answer.value.answer === 'yes'
      return judged(answer, yes ? 1 : 0, 1, `${answer.value.answer}: ${keptWords(answer.value.reasoning, recorded)}`)
    },
  }
  return withPath(scorer, options.path, owner)
}
