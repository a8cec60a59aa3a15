import { exact } from './exact.js'
import { includes } from './includes.js'
import { json } from './json.js'
import { llmJudge } from './llm-judge.js'
import { numeric } from './numeric.js'
import { regex } from './regex.js'

export type { ExactOptions } from './exact.js'
export type { IncludesOptions } from './includes.js'
export type { JsonOptions } from './json.js'
export type { LlmJudgeOptions } from './llm-judge.js'
export { JudgeReplyError, JUDGE_TEMPLATE, type JudgeScale } from './judge-prompt.js'
export type { NumericOptions } from './numeric.js'
export type { RegexOptions } from './regex.js'

/** The built-in scorers; each call makes a scorer whose config fully describes it. */
export const scorers = { exact, includes, regex, json, numeric, llmJudge }
export { exact, includes, json, llmJudge, numeric, regex }
