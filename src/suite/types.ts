// The suite as a user declares it in a *.eval.ts file, and the values the driver produces from it.

import type { AnswerStep, TargetStep } from './steps.js'
import type { AnswerTurn, TargetTurn } from './turns.js'
import type { ConversationOptions } from './conversation.js'

export type JsonObject = Record<string, unknown>

export interface EvalCase<I = unknown, E = unknown> {
  /** One safe path segment; the case's identity in journals, documents and comparisons. */
  id: string
  input: I
  expected?: E
  /** Free-form data about the case (tags, source); part of the cases digest, not passed to the target. */
  metadata?: JsonObject
  /** Labels for slices (`digline run --tag T`) and the per-tag breakdown; part of the cases digest, not passed to the target. */
  tags?: readonly string[]
  /** Retrieved passages the RAG scorers judge against (faithfulness, context precision and recall); not passed to the target. */
  context?: RetrievedContext
  /** The group the case belongs to (a document, a customer, a topic): cases of one cluster are not independent, so the comparison's intervals are cluster-robust (ADR 0243). Not in the cases digest. */
  cluster?: string
}

/** Cases read from files by dataset() (suite/dataset.ts): the cases, and each file read, by sha256. */
export interface Dataset<I = unknown, E = unknown> {
  readonly kind: 'digline-dataset'
  readonly cases: readonly EvalCase<I, E>[]
  /** path (relative to the Vitest root) → sha256 of the file's bytes, in the order read. */
  readonly files: Readonly<Record<string, string>>
}

/** A slice of a suite's cases, chosen by tag (`digline run --tag T`, DIGLINE_TAGS). */
export interface Slice {
  /** A case is in the slice when it carries any of these tags. */
  tags: readonly string[]
  /** How many cases the whole suite declares. */
  suite_cases: number
}

/** A case's context: one passage, or passages in the order they were retrieved. */
export type RetrievedContext = string | readonly string[]

export interface TargetContext {
  caseId: string
  /** 0-based index of this answer among the case's samples. */
  sample: number
  signal: AbortSignal
  /** In a conversation: 0-based index of this answer among the target's turns (the input is then the messages so far). */
  turn?: number
  /**
   * The launch's tool replay for this answer (SPEC §16): a tool call made through `callTool(ctx, …)`
   * (the agent adapters do it for you) is recorded, served from a recording, or refused under
   * `strict`. Absent when the target is called outside a launch: the tool then simply runs.
   */
  tools?: ToolCalls
}

/** Tool replay as a target sees it (src/suite/call-tool.ts). */
export interface ToolCalls {
  /**
   * The outcome of one tool call: served from a recording, or `execute()` run (and recorded). A
   * recorded error is thrown again as an Error with its message. `declared` is the tool's declared
   * shape (description, parameters, a version): a recording of another shape is not served.
   */
  call(name: string, args: unknown, execute: () => unknown, declared?: unknown): Promise<unknown>
}

export interface TokenUsage {
  input_tokens: number
  output_tokens: number
}

export interface TargetAnswer<O = unknown> {
  output: O
  /** The identity the provider reports for the model that answered (the observed identity). */
  model?: string
  usage?: TokenUsage
  /**
   * The steps an agent took: model calls and tool calls, in order (SPEC §16). The sample's usage is
   * the sum of its model calls' usage, and each model call counts against the budget.
   */
  steps?: readonly TargetStep[]
  /**
   * A conversation the target ran itself: the user's and its own messages, in order (SPEC §16).
   * `output` is then its last answer; the sample's usage is the sum of the assistant turns' usage.
   */
  turns?: readonly TargetTurn[]
}

export type TargetFunction<I = unknown, O = unknown> = (input: I, ctx: TargetContext) => O | Promise<O>

export interface TargetObject<I = unknown, O = unknown> {
  /** The declared configuration of the system under test (model, temperature, prompt version…). */
  config?: JsonObject
  ask(input: I, ctx: TargetContext): TargetAnswer<O> | Promise<TargetAnswer<O>>
}

export type Target<I = unknown, O = unknown> = TargetFunction<I, O> | TargetObject<I, O>

export interface ScorerArgs<I = unknown, O = unknown, E = unknown> {
  input: I
  output: O
  expected: E | undefined
  caseId: string
  /** The case's `context`, for the RAG scorers. */
  context?: RetrievedContext
  /** Passed through to scorers that call a model (an LLM judge). */
  signal?: AbortSignal
  /**
   * True when the run records answers (recordResponses). Only then may a reason or an error message
   * quote the output, the input or the expected value; otherwise it says how the answer failed
   * without quoting it, because reasons are written to journals, documents and baselines.
   */
  recorded?: boolean
  /** The steps the target took (model calls and tool calls), whole; empty when it reported none. */
  steps?: readonly AnswerStep[]
  /**
   * A conversation's turns, whole (what was said is there whatever is recorded): the transcript.
   * Absent for a case that is not a conversation. `output` is the target's last answer, and `steps`
   * the steps of all its turns in order.
   */
  turns?: readonly AnswerTurn[]
}

export interface ScoreResult {
  pass: boolean
  /** 0..1; defaults to 1 for a pass and 0 for a fail. */
  score?: number
  reason?: string
  /** The identity of the model that judged, for scorers that call one. */
  model?: string
  /** Tokens the judge's call spent, for scorers that call a model. */
  usage?: TokenUsage
}

export type ScorerReturn = boolean | number | ScoreResult
export type ScorerFunction<I = unknown, O = unknown, E = unknown> = (args: ScorerArgs<I, O, E>) => ScorerReturn | Promise<ScorerReturn>

export interface ScorerObject<I = unknown, O = unknown, E = unknown> {
  name: string
  /** Declared configuration; part of judge_config and so of config_hash. */
  config?: JsonObject
  /** A numeric score passes at or above this (default 0.5). */
  passAt?: number
  score(args: ScorerArgs<I, O, E>): ScorerReturn | Promise<ScorerReturn>
}

export type Scorer<I = unknown, O = unknown, E = unknown> = ScorerFunction<I, O, E> | ScorerObject<I, O, E>

export interface Thresholds {
  /** The run's pass rate must be at least this (0..1). */
  passRate?: number
  /** The run's mean score must be at least this (0..1). */
  meanScore?: number
}

export interface Tolerances {
  /** The pass rate may drop this much (absolute, 0..1) against the baseline. */
  passRate?: number
  /** The mean score may drop this much against the baseline. */
  meanScore?: number
  /** The target's cost per case may rise this much, relative to the baseline's (0.1 = 10%); needs `prices`. */
  costPerCase?: number
  /** The target's tokens (input + output) per case may rise this much, relative to the baseline's. */
  tokensPerCase?: number
  /** The target's latency per case (the median of its samples' calls) may rise this much, relative to the baseline's; declaring it records each call's latency. */
  latencyPerCase?: number
  /** An agent's tool calls per case may rise this much, relative to the baseline's (SPEC §16). */
  toolCallsPerCase?: number
  /** An agent's steps (model calls) per case may rise this much, relative to the baseline's. */
  stepsPerCase?: number
}

export interface SuiteDefinition<I = unknown, O = unknown, E = unknown> {
  name: string
  /** The cases, or a dataset read from files: `cases: await dataset('data/tickets.jsonl')`. */
  cases: readonly EvalCase<I, E>[] | Dataset<I, E>
  /** The system under test; a suite declares `target` or `variants`, not both. */
  target?: Target<I, O>
  /**
   * Several targets asked the same cases in one launch, by variant name (one safe segment each):
   * each variant is a run of its own, filed as suite `<name>.<variant>` (ADR 0300).
   */
  variants?: Readonly<Record<string, Target<I, O>>>
  /**
   * Answers per case: a count, or `{ min, max }` for adaptive samples (ADR 0360): every case takes
   * `min`, then more up to `max` only while its verdict at `max` could still change. In config_hash.
   */
  samples?: number | AdaptiveSamples
  minAgreement?: number
  scorers: readonly Scorer<I, O, E>[]
  thresholds?: Thresholds
  tolerances?: Tolerances
  /**
   * What the pass-rate gate compares per case: its verdict (`'verdicts'`, the default) or its share
   * of passing samples (`'samples'`, more power with several samples; thresholds still use verdicts).
   * In config_hash.
   */
  gateOn?: 'verdicts' | 'samples'
  /**
   * Human labels a judge must have met before it may fail the run (ADR 0352): at least `minLabels`
   * labels from \`digline view\` and a Cohen's kappa of at least `minAgreement` with them. Below it, a
   * regression or a missed threshold that rests on that judge is not judged (exit 2). In config_hash.
   */
  calibration?: Calibration
  /** Each case's cluster as a function of the case (`(c) => c.metadata.topic`); a case's own `cluster` field when absent (ADR 0243). */
  cluster?: (evalCase: EvalCase<I, E>) => string | undefined
  recordResponses?: boolean
  /**
   * A band around each scorer's passAt (0 < band < 0.5, on the 0..1 score): a score within it is
   * marked borderline in the document and counted apart in the summary and the comparison, so a
   * verdict that straddles the threshold shows. Not in config_hash: it changes no verdict.
   */
  borderline?: number
  concurrency?: number
  /** Files or globs (such as prompts/**\/*.md) the suite depends on, relative to the Vitest root; each file recorded by sha256 in the run; not in config_hash. */
  artifacts?: readonly string[]
  /** Free-form run metadata written to the document. */
  metadata?: JsonObject
  /** Per-case timeout in ms for the Vitest test that waits on the case (default: none). */
  timeout?: number
  /** Prices per million tokens by model id; the run's aggregates then carry its cost. Not in config_hash. */
  prices?: PriceTable
  /** Stop issuing calls once a launch reaches this spend; the run stays pending and resumable. Not in config_hash. */
  budget?: Budget
  /** Reuse a target answer when its case input, target config, sample and artifacts are unchanged (default: on under `vitest --watch`). */
  cache?: boolean
  /**
   * Every case is a conversation (SPEC §16): its input is `{ script: [user messages…] }`, or
   * `{ persona?, goal, maxTurns? }` for the simulated `user` (whose config is in config_hash). The
   * target is asked once per user message, with the messages so far as its input.
   */
  conversation?: ConversationOptions
  /**
   * Tool replay (SPEC §16): 'record' keeps every tool call's outcome in the store, 'replay' serves
   * recorded ones and records the rest, 'strict' serves recorded ones and errors a case that makes a
   * call never recorded, 'off' (the default) runs tools. DIGLINE_TOOL_REPLAY overrides it for a launch.
   */
  toolReplay?: 'off' | 'record' | 'replay' | 'strict'
}

/** A definition whose cases are a list (a dataset's cases taken out of it). */
export type InlineCasesDefinition = Omit<SuiteDefinition, 'cases'> & { cases: readonly EvalCase[] }

/** Adaptive samples: at least `min` answers per case, at most `max`. */
export interface AdaptiveSamples {
  min: number
  max: number
}

/** How calibrated a judge must be to gate (ADR 0352). */
export interface Calibration {
  /** Labels of the judge's verdicts a person made (at least 1). */
  minLabels: number
  /** The least Cohen's kappa between the judge and those labels (above 0, at most 1). */
  minAgreement: number
}

/** A launch's spending cap: money (in the currency of `prices`, which it needs) and/or calls to the target. */
export interface Budget {
  usd?: number
  calls?: number
}

/** What a model costs per million input and output tokens, in the currency of your choice. */
export interface ModelPrice {
  input: number
  output: number
}

/** Keyed by the model id the provider reports (or, failing that, the declared one). */
export type PriceTable = Readonly<Record<string, ModelPrice>>

/** A scorer in its one internal shape. */
export interface ResolvedScorer {
  name: string
  config: JsonObject
  passAt: number
  score(args: ScorerArgs): ScorerReturn | Promise<ScorerReturn>
}

/** The rules: everything config_hash covers except the scorers. */
export interface SuiteRules {
  /** Samples per case; with adaptive samples, the most a case takes. */
  samples: number
  /** Present only with adaptive samples (ADR 0360): the fewest a case takes. */
  min_samples?: number
  min_agreement: number
  thresholds: { pass_rate?: number; mean_score?: number }
  tolerances: RuleTolerances
  /** Present only when the pass-rate gate judges shares of passing samples. */
  gate_on?: 'samples'
  /** Present only when the suite asks its judges to be calibrated (ADR 0352). */
  calibration?: { min_labels: number; min_agreement: number }
}

/** The tolerances as the document keeps them: the first two absolute, the last three relative to the baseline. */
export interface RuleTolerances {
  pass_rate?: number
  mean_score?: number
  cost_per_case?: number
  tokens_per_case?: number
  latency_per_case?: number
  tool_calls_per_case?: number
  steps_per_case?: number
}

/** A validated suite, in the shape the driver and the host use. */
export interface ResolvedSuite {
  name: string
  cases: readonly EvalCase[]
  rules: SuiteRules
  scorers: readonly ResolvedScorer[]
  targetConfig: JsonObject
  ask(input: unknown, ctx: TargetContext): Promise<TargetAnswer>
  recordResponses: boolean
  /** The suite's `borderline` band, when it sets one. */
  borderline?: number
  concurrency: number
  artifacts: readonly string[]
  metadata: JsonObject
  timeout: number
  prices?: PriceTable
  budget?: Budget
  /** The suite's own `cache` option; the launch decides whether the cache is on (host/cache/cache-setting.ts). */
  cache?: boolean
  /** The suite's own `toolReplay` option; DIGLINE_TOOL_REPLAY may override it for a launch (host/tools/tool-replay-setting.ts). */
  toolReplay?: 'off' | 'record' | 'replay' | 'strict'
  /** Dataset files the cases were read from: path → sha256 (empty when the cases are inline). */
  datasets: Readonly<Record<string, string>>
  /** Set when this launch runs a slice of the suite by tag: `cases` are the slice's. */
  slice?: Slice
  /** Set for one variant of a suite that declares `variants`: `name` is then `<suite>.<variant>`. */
  variant?: VariantOf
  /** Set when every case is a conversation; `user` plays the simulated users. */
  conversation?: ConversationOptions
}

/** Which variant of which declared suite a resolved suite is, and how many variants the suite has. */
export interface VariantOf {
  suite: string
  name: string
  /** How many variants the suite declares (they share its budget and its target calls in flight). */
  of: number
  /** Its place among the suite's variants as declared, from 0: the order the report shows them in. */
  position: number
}
