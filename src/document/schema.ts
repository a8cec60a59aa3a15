// The run document as it is on disk (snake_case), validated with zod wherever data enters.
import type { z } from 'zod'
import { lazySchema } from '../suite/zod-on-demand.js'
import { isCreatedAt } from '../suite/keys.js'
import { sampleAnswerZodShape, tokenUsageSchema } from './answer-shape.js'

export const SCHEMA_VERSION = 1

const jsonObject = lazySchema((z) => z.record(z.string(), z.unknown()))
const unitInterval = lazySchema((z) => z.number().min(0).max(1))
const relativeRise = lazySchema((z) => z.number().min(0).max(100))

export { tokenUsageSchema }

export const scorerScoreSchema = lazySchema((z) =>
  z.object({
    name: z.string(),
    pass: z.boolean(),
    score: unitInterval,
    reason: z.string().nullable(),
    /** Tokens a judge's call spent scoring this sample. */
    usage: tokenUsageSchema.optional(),
    /** The score lies within the suite's `borderline` band of the scorer's pass_at (ADR 0262); absent otherwise. */
    borderline: z.literal(true).optional(),
  }),
)

/** A sample: its verdict, then its answer's fields (answer-shape.ts, the one definition of them). */
export const sampleResultSchema = lazySchema((z) =>
  z.object({
    pass: z.boolean(),
    score: unitInterval,
    scorers: z.array(scorerScoreSchema),
    ...sampleAnswerZodShape,
  }),
)

export const errorCauseSchema = lazySchema((z) => z.enum(['target', 'scorer', 'mapper']))

export const caseResultSchema = lazySchema((z) =>
  z.object({
    case_id: z.string(),
    verdict: z.enum(['pass', 'fail', 'error']),
    score: unitInterval.nullable(),
    passed_samples: z.number().int().nonnegative(),
    reason: z.string().nullable(),
    error: z.object({ cause: errorCauseSchema, message: z.string() }).nullable(),
    samples: z.array(sampleResultSchema),
    /** With adaptive samples (ADR 0360), why the case took no more: its verdict was settled, or it took the most; absent otherwise and on an errored case. */
    sampling_stopped: z.enum(['settled', 'max']).optional(),
    /** What the target's tokens of this case cost; present only when the suite gates on cost (tolerances.cost_per_case). */
    target_cost: z.number().nonnegative().optional(),
    /** The case's tags and metadata, as declared; absent when it declares none. */
    tags: z.array(z.string()).optional(),
    metadata: jsonObject.optional(),
    /** The case's cluster, as declared (ADR 0243); absent when it names none. */
    cluster: z.string().optional(),
    /** The case's input and expected value; present only when the run records responses. */
    input: z.unknown().optional(),
    expected: z.unknown().optional(),
  }),
)

export const costSchema = lazySchema((z) =>
  z.object({
    target: z.number().nonnegative(),
    judge: z.number().nonnegative(),
    total: z.number().nonnegative(),
    /** Models whose tokens had no price; their share is missing from the sums. */
    unpriced: z.array(z.string()),
  }),
)

export const intervalSchema = lazySchema((z) => z.object({ low: unitInterval, high: unitInterval }))

export const aggregatesSchema = lazySchema((z) =>
  z.object({
    cases: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    errored: z.number().int().nonnegative(),
    pass_rate: unitInterval.nullable(),
    pass_rate_ci95: intervalSchema.nullable(),
    mean_score: unitInterval.nullable(),
    /** Samples per case; with adaptive samples, the most a case takes. */
    samples_per_case: z.number().int().positive(),
    /** With adaptive samples only: the samples the judged cases took, in all. */
    samples_taken: z.number().int().nonnegative().optional(),
    usage: tokenUsageSchema.optional(),
    /** Tokens the judges spent, summed over the samples in results. */
    judge_usage: tokenUsageSchema.optional(),
    /** Present when the suite declares prices: what the usage cost, in the price table's currency. */
    cost: costSchema.optional(),
  }),
)

export const rulesSchema = lazySchema((z) =>
  z.object({
    samples: z.number().int().positive(),
    /** Adaptive samples (ADR 0360): the fewest a case takes, `samples` the most; absent: every case takes `samples`. */
    min_samples: z.number().int().positive().optional(),
    min_agreement: unitInterval,
    thresholds: z.object({ pass_rate: unitInterval.optional(), mean_score: unitInterval.optional() }),
    tolerances: z.object({
      pass_rate: unitInterval.optional(),
      mean_score: unitInterval.optional(),
      cost_per_case: relativeRise.optional(),
      tokens_per_case: relativeRise.optional(),
      latency_per_case: relativeRise.optional(),
      tool_calls_per_case: relativeRise.optional(),
      steps_per_case: relativeRise.optional(),
    }),
    /** The pass-rate gate judges each case's share of passing samples instead of its verdict (ADR 0122); absent: verdicts. */
    gate_on: z.literal('samples').optional(),
    /** The labels and agreement a judge needs before it may fail the run (ADR 0352); absent: judges gate uncalibrated. */
    calibration: z.object({ min_labels: z.number().int().positive(), min_agreement: z.number().gt(0).max(1) }).optional(),
  }),
)

export const judgeConfigSchema = lazySchema((z) =>
  z.object({
    scorers: z.array(z.object({ name: z.string(), config: jsonObject, pass_at: z.number() })),
    /** The simulated user of a conversation suite: its declared config (ADR 0311); absent otherwise. */
    simulated_user: jsonObject.optional(),
  }),
)

export const observedSchema = lazySchema((z) =>
  z.object({
    target_model: z.string().nullable(),
    judge_models: z.record(z.string(), z.string()),
  }),
)

/** Every field before `aggregates`, in the order they are written. */
export const runHeaderSchema = lazySchema((z) =>
  z.object({
    schema_version: z.literal(SCHEMA_VERSION),
    digline_version: z.string(),
    tenant: z.string(),
    environment: z.string(),
    suite: z.string(),
    created_at: z.string().refine(isCreatedAt, { message: 'must be ISO-8601 UTC with microseconds' }),
    config_hash: z.string().regex(/^[0-9a-f]{12}$/),
    rejudged_from: z.string().optional(),
    rejudged_from_suite: z.string().optional(),
    git_commit: z.string().optional(),
    record_responses: z.boolean(),
    target_config: jsonObject,
    judge_config: judgeConfigSchema,
    artifacts: z.record(z.string(), z.string()),
    metadata: jsonObject,
    /** Dataset files the cases were read from, path → sha256; absent when the cases are inline. */
    datasets: z.record(z.string(), z.string()).optional(),
    /** Present when the run is a slice of the suite by tag (never promoted). */
    slice: z.object({ tags: z.array(z.string()), suite_cases: z.number().int().nonnegative() }).optional(),
    /**
     * Present when the run is one variant of a suite that declares variants: the declared suite, the
     * variant's name (ADR 0300) and its place among the declared variants, from 0 (ADR 0415; absent in older runs).
     */
    variant: z.object({ suite: z.string(), name: z.string(), position: z.number().int().nonnegative().optional() }).optional(),
    rules: rulesSchema,
    observed: observedSchema,
    /** How many answers came from the response cache; absent when none did (such a run is never promoted). */
    cached_answers: z.number().int().positive().optional(),
  }),
)

export const runDocumentSchema = lazySchema((z) =>
  runHeaderSchema.extend({
    aggregates: aggregatesSchema,
    results: z.array(caseResultSchema),
  }),
)

export type ScorerScore = z.infer<typeof scorerScoreSchema>
export type SampleResult = z.infer<typeof sampleResultSchema>
export type ErrorCause = z.infer<typeof errorCauseSchema>
export type CaseResult = z.infer<typeof caseResultSchema>
export type Aggregates = z.infer<typeof aggregatesSchema>
export type Cost = z.infer<typeof costSchema>
export type Interval = z.infer<typeof intervalSchema>
export type Rules = z.infer<typeof rulesSchema>
export type JudgeConfig = z.infer<typeof judgeConfigSchema>
export type Observed = z.infer<typeof observedSchema>
export type RunHeader = z.infer<typeof runHeaderSchema>
export type RunDocument = z.infer<typeof runDocumentSchema>

/** Header keys in on-disk order (the order of runHeaderSchema); the serializer and the bounded reader both follow it. */
export const HEADER_KEYS: readonly (keyof RunHeader)[] = [
  'schema_version',
  'digline_version',
  'tenant',
  'environment',
  'suite',
  'created_at',
  'config_hash',
  'rejudged_from',
  'rejudged_from_suite',
  'git_commit',
  'record_responses',
  'target_config',
  'judge_config',
  'artifacts',
  'metadata',
  'datasets',
  'slice',
  'variant',
  'rules',
  'observed',
  'cached_answers',
]
