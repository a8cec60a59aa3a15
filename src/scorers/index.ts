import { answerRelevance } from './answer-relevance.js'
import { closedQa } from './closed-qa.js'
import { contextPrecision } from './context-precision.js'
import { contextRecall } from './context-recall.js'
import { editDistance } from './edit-distance.js'
import { embeddingSimilarity } from './embedding-similarity.js'
import { exact } from './exact.js'
import { factuality } from './factuality.js'
import { faithfulness } from './faithfulness.js'
import { includes } from './includes.js'
import { json } from './json.js'
import { jsonDiff } from './json-diff.js'
import { llmJudge } from './llm-judge.js'
import { numeric } from './numeric.js'
import { regex } from './regex.js'
import { toolCalls } from './tool-calls.js'

export type { ExactOptions } from './exact.js'
export type { IncludesOptions } from './includes.js'
export type { JsonOptions } from './json.js'
export type { LlmJudgeOptions } from './llm-judge.js'
export { JudgeReplyError, JUDGE_TEMPLATE, type JudgeScale } from './judge-prompt.js'
export type { NumericOptions } from './numeric.js'
export type { RegexOptions } from './regex.js'
export { ANSWER_RELEVANCE_RUBRIC, type AnswerRelevanceOptions } from './answer-relevance.js'
export { CLOSED_QA_TEMPLATE, type ClosedQaOptions } from './closed-qa.js'
export { CONTEXT_PRECISION_TEMPLATE, type ContextPrecisionOptions } from './context-precision.js'
export { CONTEXT_RECALL_TEMPLATE, type ContextRecallOptions } from './context-recall.js'
export type { EditDistanceOptions } from './edit-distance.js'
export type { EmbeddingSimilarityOptions } from './embedding-similarity.js'
export { FACTUALITY_SCORES, FACTUALITY_TEMPLATE, type FactualityOptions } from './factuality.js'
export { FAITHFULNESS_TEMPLATE, type FaithfulnessOptions } from './faithfulness.js'
export type { JsonDiffOptions } from './json-diff.js'
export type { ExpectedToolCall, ToolCallsOptions } from './tool-calls.js'

/** The built-in scorers; each call makes a scorer whose config fully describes it. */
export const scorers = {
  exact,
  includes,
  regex,
  json,
  numeric,
  llmJudge,
  factuality,
  closedQa,
  answerRelevance,
  faithfulness,
  contextPrecision,
  contextRecall,
  embeddingSimilarity,
  editDistance,
  jsonDiff,
  toolCalls,
}
export { exact, includes, json, llmJudge, numeric, regex }
export { answerRelevance, closedQa, contextPrecision, contextRecall, editDistance, embeddingSimilarity, factuality, faithfulness, jsonDiff }
export { toolCalls }
