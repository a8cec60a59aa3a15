import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { llmJudge } from './llm-judge.js'

export interface AnswerRelevanceOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** The lowest score on 1..5 that passes (default 4). */
  passAt?: number
  /** Score one field of a structured answer; in the config. */
  path?: string
  /** The scorer's name in results (default "answer_relevance"). */
  name?: string
}

/** The rubric the judge scores against; it is the judge's config, so a change to it moves config_hash. */
export const ANSWER_RELEVANCE_RUBRIC = [
  'Answer relevance (digline-answer-relevance-v1): how directly and completely the response addresses the question in the input.',
  'Judge relevance only, not correctness: a wrong answer to the question asked is relevant, a correct answer to another question is not.',
  '5: addresses exactly the question, nothing missing, nothing off topic.',
  '4: addresses the question, with a little that is missing or off topic.',
  '3: partly addresses it; a large part is missing or off topic.',
  '2: mostly about something else, touching the question.',
  '1: does not address the question, or refuses it.',
].join('\n')

/** Asks the judge, on 1..5, how directly the output addresses the input's question; the expected value is not shown. */
export function answerRelevance(options: AnswerRelevanceOptions): ScorerObject {
  const judge = llmJudge({ model: options?.model, rubric: ANSWER_RELEVANCE_RUBRIC, passAt: options?.passAt ?? 4, name: options?.name ?? 'answer_relevance' })
  const scorer: ScorerObject = {
    ...judge,
    // Relevance is judged without the reference, so that it does not turn into correctness.
    score: (args) => judge.score({ ...args, expected: undefined }),
  }
  return withPath(scorer, options.path, 'scorers.answerRelevance()')
}
