// One sample's answer, defined once (issue 24 item 3, ADR 0130): which fields it has, what kind of
// value each holds, in what order it is written, and where it goes. The zod schema of a sample
// (schema.ts), the fast reader (fast-shape.ts), the serializer (serialize.ts), the response cache's
// entry (the cached answer's schema and encoding) and the driver's check of a target's answer all
// take their answer fields from here; test/unit/document/answer-shape.test.ts names the place that
// forgot one. A field is added here, with its kind, and nowhere else.
import type { z } from 'zod'
import { lazySchema } from '../suite/zod-on-demand.js'
import type { CachedTargetAnswer } from '../suite/cache-key.js'
import type { AnswerStep } from '../suite/steps.js'
import type { AnswerTurn } from '../suite/turns.js'
import type { TokenUsage } from '../suite/types.js'

type Shape = Readonly<Record<string, unknown>>

/** Everything a reader or writer needs of one kind of value. */
export interface AnswerKind<T> {
  /** The on-disk value as zod checks it where data enters. */
  schema: z.ZodType<T>
  /** Whether `schema` accepts the value and gives it back unchanged (the fast reader's yes). */
  isCanonical(value: unknown): boolean
  /** The value as it is written: a copy in on-disk key order, or undefined to leave the field out. */
  toDisk(value: T): unknown
  /** A value of this kind, for the test that a field reaches every place. */
  example: T
}

const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0

/** The order of `value`'s keys is the order of `order` (zod builds its output in shape order), and every key is one of them. */
export function keysInOrder(value: Shape, order: readonly string[]): boolean {
  let at = 0
  for (const key in value) {
    while (at < order.length && order[at] !== key) at++
    if (at === order.length) return false
    at++
  }
  return true
}

const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null && !Array.isArray(value)

// ── token usage: the one definition, the one check ──────────────────────────────────────────────

export const tokenUsageSchema = lazySchema((z) =>
  z.object({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
  }),
)

// The key lists below are the schemas' shapes, written out so a check needs no zod; test/unit/document/schema-keys.test.ts holds them equal.
const USAGE_KEYS = ['input_tokens', 'output_tokens']

/** tokenUsageSchema accepts it and gives it back unchanged. */
export function isCanonicalUsage(value: unknown): boolean {
  return isObject(value) && keysInOrder(value, USAGE_KEYS) && isCount(value.input_tokens) && isCount(value.output_tokens)
}

const USAGE_WANTED = '{ input_tokens, output_tokens } of non-negative integers'

/**
 * Usage a target or a scorer reported, as the document will hold it (other keys dropped), or why it
 * is not usage. Counts beyond 2^53 are refused here: the readers would refuse the document that held them.
 */
export function usageFrom(value: unknown): TokenUsage | string {
  if (isObject(value) && isCount(value.input_tokens) && isCount(value.output_tokens)) return { input_tokens: value.input_tokens, output_tokens: value.output_tokens }
  return USAGE_WANTED
}

export function usageToDisk(usage: TokenUsage): TokenUsage {
  return { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens }
}

// ── the kinds ───────────────────────────────────────────────────────────────────────────────────

const usageKind: AnswerKind<TokenUsage> = { schema: tokenUsageSchema, isCanonical: isCanonicalUsage, toDisk: usageToDisk, example: { input_tokens: 12, output_tokens: 3 } }

const millisecondsKind: AnswerKind<number> = { schema: lazySchema((z) => z.number().int().nonnegative()), isCanonical: isCount, toDisk: (ms) => ms, example: 41 }

const flagKind: AnswerKind<true> = { schema: lazySchema((z) => z.literal(true)), isCanonical: (x) => x === true, toDisk: (x) => (x === true ? true : undefined), example: true }

/** Plain JSON, not looked into (the driver refuses what JSON cannot hold before it is recorded). */
const jsonKind: AnswerKind<unknown> = { schema: lazySchema((z) => z.unknown()), isCanonical: () => true, toDisk: (x) => x, example: { text: 'Lima', n: [1, 2] } }

const modelIdKind: AnswerKind<string> = { schema: lazySchema((z) => z.string()), isCanonical: (x) => typeof x === 'string', toDisk: (x) => x, example: 'geo-v1-2026-01' }

// ── an agent's steps (SPEC §16) ─────────────────────────────────────────────────────────────────

const modelStepSchema = lazySchema((z) =>
  z.object({
    type: z.literal('model'),
    model: z.string().optional(),
    usage: tokenUsageSchema.optional(),
    latency_ms: z.number().int().nonnegative().optional(),
  }),
)

/** A tool call; `arguments`, `result` and `error` are there only when the run records responses. */
const toolStepSchema = lazySchema((z) =>
  z.object({
    type: z.literal('tool'),
    name: z.string(),
    ok: z.boolean(),
    latency_ms: z.number().int().nonnegative().optional(),
    arguments: z.unknown().optional(),
    result: z.unknown().optional(),
    error: z.string().optional(),
  }),
)

export const answerStepSchema = lazySchema((z) => z.discriminatedUnion('type', [modelStepSchema, toolStepSchema]))

const MODEL_STEP_KEYS = ['type', 'model', 'usage', 'latency_ms']
const TOOL_STEP_KEYS = ['type', 'name', 'ok', 'latency_ms', 'arguments', 'result', 'error']

function isCanonicalStep(value: unknown): boolean {
  if (!isObject(value)) return false
  const optional = (x: unknown, check: (y: unknown) => boolean): boolean => x === undefined || check(x)
  if (value.type === 'model') {
    return (
      keysInOrder(value, MODEL_STEP_KEYS) && optional(value.model, (x) => typeof x === 'string') && optional(value.usage, isCanonicalUsage) && optional(value.latency_ms, isCount)
    )
  }
  if (value.type !== 'tool' || !keysInOrder(value, TOOL_STEP_KEYS)) return false
  return typeof value.name === 'string' && typeof value.ok === 'boolean' && optional(value.latency_ms, isCount) && optional(value.error, (x) => typeof x === 'string')
}

/** A step in its on-disk key order, absent fields left out. */
export function stepToDisk(step: AnswerStep): AnswerStep {
  const order = step.type === 'model' ? MODEL_STEP_KEYS : TOOL_STEP_KEYS
  const out: Record<string, unknown> = {}
  for (const key of order) {
    const value = (step as unknown as Shape)[key]
    if (value !== undefined) out[key] = key === 'usage' ? usageToDisk(value as TokenUsage) : value
  }
  return out as unknown as AnswerStep
}

const stepsKind: AnswerKind<AnswerStep[]> = {
  schema: lazySchema((z) => z.array(answerStepSchema)) as z.ZodType<AnswerStep[]>,
  isCanonical: (x) => Array.isArray(x) && x.every(isCanonicalStep),
  toDisk: (steps) => steps.map(stepToDisk),
  example: [
    { type: 'model', model: 'geo-v1-2026-01', usage: { input_tokens: 20, output_tokens: 4 }, latency_ms: 12 },
    { type: 'tool', name: 'lookup_city', ok: true, latency_ms: 3, arguments: { city: 'Lima' }, result: { country: 'Peru' } },
    { type: 'tool', name: 'weather', ok: false, arguments: { city: 'Lima' }, error: 'no station' },
    { type: 'model', model: 'geo-v1-2026-01', usage: { input_tokens: 31, output_tokens: 2 }, latency_ms: 9 },
  ],
}

// ── a conversation's turns (SPEC §16) ───────────────────────────────────────────────────────────

/** One message; `content` is there only when the run records responses, `steps` only on the target's turns. */
const turnSchema = lazySchema((z) =>
  z.object({
    role: z.enum(['user', 'assistant']),
    content: z.unknown().optional(),
    usage: tokenUsageSchema.optional(),
    latency_ms: z.number().int().nonnegative().optional(),
    steps: z.array(answerStepSchema).optional(),
  }),
)

const TURN_KEYS = ['role', 'content', 'usage', 'latency_ms', 'steps']

/** The written-out step and turn key lists (test/unit/document/schema-keys.test.ts holds them to the schemas). */
export const STEP_AND_TURN_KEYS = { model: MODEL_STEP_KEYS, tool: TOOL_STEP_KEYS, turn: TURN_KEYS }

function isCanonicalTurn(value: unknown): boolean {
  if (!isObject(value) || !keysInOrder(value, TURN_KEYS) || (value.role !== 'user' && value.role !== 'assistant')) return false
  if (value.usage !== undefined && !isCanonicalUsage(value.usage)) return false
  if (value.latency_ms !== undefined && !isCount(value.latency_ms)) return false
  return value.steps === undefined || (Array.isArray(value.steps) && value.steps.every(isCanonicalStep))
}

/** A turn in its on-disk key order, absent fields left out. */
export function turnToDisk(turn: AnswerTurn): AnswerTurn {
  const out: AnswerTurn = { role: turn.role }
  if (turn.content !== undefined) out.content = turn.content
  if (turn.usage !== undefined) out.usage = usageToDisk(turn.usage)
  if (turn.latency_ms !== undefined) out.latency_ms = turn.latency_ms
  if (turn.steps !== undefined) out.steps = turn.steps.map(stepToDisk)
  return out
}

const turnsKind: AnswerKind<AnswerTurn[]> = {
  schema: lazySchema((z) => z.array(turnSchema)) as z.ZodType<AnswerTurn[]>,
  isCanonical: (x) => Array.isArray(x) && x.every(isCanonicalTurn),
  toDisk: (turns) => turns.map(turnToDisk),
  example: [
    { role: 'user', content: 'My order 42 came broken', usage: { input_tokens: 50, output_tokens: 9 } },
    {
      role: 'assistant',
      content: 'Sorry! Shall I refund it?',
      usage: { input_tokens: 20, output_tokens: 7 },
      latency_ms: 14,
      steps: [
        { type: 'model', usage: { input_tokens: 20, output_tokens: 7 } },
        { type: 'tool', name: 'find_order', ok: true, arguments: { id: 42 }, result: { state: 'delivered' } },
      ],
    },
    { role: 'user', content: 'Yes please' },
    { role: 'assistant', content: 'Done: refund 42-R issued.' },
  ],
}

// ── the fields ──────────────────────────────────────────────────────────────────────────────────

/** Where the report data carries a sample's field, or why it does not. */
export type ReportPlace = { row: 'usage' | 'answers' | 'trajectories' | 'conversations' } | { omitted: string }

export interface AnswerField<T = unknown> {
  kind: AnswerKind<T>
  /** Who gives the value: the target in its answer, or the driver measuring the call. */
  from: 'target' | 'driver'
  /** Kept only when the run records responses (it may quote the user's data). */
  recordedOnly: boolean
  report: ReportPlace
}

/** Every field of an answer. The order of the lists below is the order on disk. */
export const ANSWER_FIELDS = {
  /** Tokens the target's call spent; for a cached answer, those of the call that first produced it. */
  usage: { kind: usageKind, from: 'target', recordedOnly: false, report: { row: 'usage' } } satisfies AnswerField<TokenUsage>,
  /** Whole milliseconds the target took; measured only when the suite gates on latency (tolerances.latency_per_case). */
  latency_ms: {
    kind: millisecondsKind,
    from: 'driver',
    recordedOnly: false,
    report: { omitted: 'latency is gated by the comparison (tolerances.latency_per_case), which the report shows' },
  } satisfies AnswerField<number>,
  /** The answer came from the response cache instead of a call; absent otherwise. */
  cached: { kind: flagKind, from: 'driver', recordedOnly: false, report: { omitted: "the run's header counts cached answers (cached_answers)" } } satisfies AnswerField<true>,
  /** The target's answer; in a document only when the run records responses. */
  output: { kind: jsonKind, from: 'target', recordedOnly: true, report: { row: 'answers' } } satisfies AnswerField<unknown>,
  /** The observed identity: pinned for the whole run in the header's `observed`, not kept per sample. */
  model: { kind: modelIdKind, from: 'target', recordedOnly: false, report: { omitted: "the run's identity shows the observed model" } } satisfies AnswerField<string>,
  /**
   * The steps an agent took (model calls, tool calls), in order. Always kept as counts, model ids,
   * usage, durations and tool names; a tool call's arguments, result and error message only when
   * the run records responses (the driver leaves them out otherwise, ADR 0270).
   */
  steps: {
    kind: stepsKind,
    from: 'target',
    recordedOnly: false,
    report: { row: 'trajectories' },
  } satisfies AnswerField<AnswerStep[]>,
  /**
   * A conversation's messages, the user's and the target's, in order (ADR 0310). Always kept as
   * roles, usage, durations and the target's steps (cut as `steps` are); what was said only when
   * the run records responses.
   */
  turns: {
    kind: turnsKind,
    from: 'target',
    recordedOnly: false,
    report: { row: 'conversations' },
  } satisfies AnswerField<AnswerTurn[]>,
} as const

export type AnswerFieldName = keyof typeof ANSWER_FIELDS

/** A sample's answer fields, after its verdict (pass, score, scorers), in on-disk order. */
export const SAMPLE_ANSWER_FIELDS = ['usage', 'latency_ms', 'cached', 'output', 'steps', 'turns'] as const satisfies readonly AnswerFieldName[]

/** A cached answer's fields, in its entry's order: what the target gave, nothing the driver measured. */
export const CACHED_ANSWER_FIELDS = ['output', 'model', 'usage', 'steps', 'turns'] as const satisfies readonly AnswerFieldName[]

type SampleAnswerName = (typeof SAMPLE_ANSWER_FIELDS)[number]
type KindValue<N extends AnswerFieldName> = (typeof ANSWER_FIELDS)[N]['kind'] extends AnswerKind<infer T> ? T : never

/** The answer part of a sample result, as the document holds it. */
export type SampleAnswer = { [N in SampleAnswerName]?: KindValue<N> }

function zodShapeOf<const N extends readonly AnswerFieldName[]>(names: N): { [K in N[number]]: z.ZodOptional<(typeof ANSWER_FIELDS)[K]['kind']['schema']> } {
  const shape: Record<string, z.ZodType> = {}
  for (const name of names) shape[name] = ANSWER_FIELDS[name].kind.schema.optional()
  return shape as never
}

/** The zod fields of a sample's answer, in on-disk order; schema.ts spreads them into sampleResultSchema. */
export const sampleAnswerZodShape = lazySchema(() => zodShapeOf(SAMPLE_ANSWER_FIELDS))

/** The cached answer as the cache's readers check it; output is required, as the target must give it. */
export const cachedAnswerSchema = lazySchema((z) => z.object({ ...zodShapeOf(CACHED_ANSWER_FIELDS), output: jsonKind.schema }))

// The cache's type (src/suite/cache-key.ts, below this layer) has exactly the cached fields.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const cachedFieldsMatch: Same<keyof CachedTargetAnswer, (typeof CACHED_ANSWER_FIELDS)[number]> = true
void cachedFieldsMatch

// Resolved once: the hot paths walk plain arrays, not the record.
const SAMPLE_KINDS: readonly (readonly [string, AnswerKind<unknown>])[] = SAMPLE_ANSWER_FIELDS.map((name) => [name, ANSWER_FIELDS[name].kind as AnswerKind<unknown>])
const CACHED_KINDS: readonly (readonly [string, AnswerKind<unknown>])[] = CACHED_ANSWER_FIELDS.map((name) => [name, ANSWER_FIELDS[name].kind as AnswerKind<unknown>])

/** The fast reader's check of a sample's answer fields (their order is checked with the sample's keys). */
export function isCanonicalSampleAnswer(sample: Shape): boolean {
  for (let i = 0; i < SAMPLE_KINDS.length; i++) {
    const [name, kind] = SAMPLE_KINDS[i]!
    const value = sample[name]
    if (value !== undefined && !kind.isCanonical(value)) return false
  }
  return true
}

/** Writes a sample's answer fields into `out`, in on-disk order; absent ones are left out. */
export function sampleAnswerToDisk(sample: SampleAnswer, out: Record<string, unknown>): void {
  for (let i = 0; i < SAMPLE_KINDS.length; i++) {
    const [name, kind] = SAMPLE_KINDS[i]!
    const value = (sample as Shape)[name]
    if (value === undefined) continue
    const written = kind.toDisk(value)
    if (written !== undefined) out[name] = written
  }
}

/** A checked target answer as the cache keeps it, in the entry's order; absent fields are left out. */
export function cachedAnswerOf(answer: { readonly [N in (typeof CACHED_ANSWER_FIELDS)[number]]?: unknown }): CachedTargetAnswer {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < CACHED_KINDS.length; i++) {
    const [name, kind] = CACHED_KINDS[i]!
    const value = (answer as Shape)[name]
    if (value !== undefined || name === 'output') out[name] = value === undefined ? value : kind.toDisk(value)
  }
  return out as unknown as CachedTargetAnswer
}
