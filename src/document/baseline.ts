// The baseline: the promoted run document without responses, plus when it was promoted and from
// which key. It keeps the run document's line layout, so the bounded header reader and a reviewer's
// `git diff` both see one header field per line and one case per line.
import type { z } from 'zod'
import { lazySchema } from '../suite/zod-on-demand.js'
import { runDocumentSchema, type CaseResult, type RunDocument } from './schema.js'
import { AGGREGATES_MARKER, serializeRun } from './serialize.js'

export const KEY_PATTERN = /^\d{8}T\d{12}Z-[0-9a-f]{12}$/

/** The two fields a baseline adds, written after the run's own header fields, before `aggregates`. */
export const BASELINE_HEADER_KEYS = ['promoted_at', 'promoted_from'] as const

export const baselineDocumentSchema = lazySchema((z) =>
  runDocumentSchema.extend({
    promoted_at: z.string(),
    promoted_from: z.string().regex(KEY_PATTERN),
  }),
)

export type BaselineDocument = z.infer<typeof baselineDocumentSchema>

/** One line of register.jsonl: one promotion. */
export const registerEntrySchema = lazySchema((z) =>
  z.object({
    promoted_at: z.string(),
    suite: z.string(),
    key: z.string(),
    replaced: z.string().nullable(),
    config_hash: z.string(),
    cases: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    pass_rate: z.number().min(0).max(1).nullable(),
  }),
)

export type RegisterEntry = z.infer<typeof registerEntrySchema>

function withoutResponses(result: CaseResult): CaseResult {
  const { input: _input, expected: _expected, ...rest } = result
  return {
    ...rest,
    samples: result.samples.map(({ output: _output, ...sample }) => ({
      ...sample,
      ...(sample.steps === undefined ? {} : { steps: sample.steps.map(stepShape) }),
      ...(sample.turns === undefined ? {} : { turns: sample.turns.map(turnShape) }),
    })),
  }
}

/** A conversation's turn as a run that records no responses keeps it (ADR 0310): what was said is an answer. */
function turnShape<T extends { content?: unknown; steps?: { type: string }[] }>(turn: T): T {
  const { content: _content, ...shape } = turn
  return (shape.steps === undefined ? shape : { ...shape, steps: shape.steps.map(stepShape) }) as T
}

/** A step as a run that records no responses keeps it (ADR 0270): a tool call's arguments, result and error are answers, and tool replay's recordings never reach a baseline. */
function stepShape<S extends { type: string; arguments?: unknown; result?: unknown; error?: unknown }>(step: S): S {
  if (step.type !== 'tool') return step
  const { arguments: _arguments, result: _result, error: _error, ...shape } = step
  return shape as S
}

/**
 * The baseline of a run: every case keeps its verdict, scores and reasons, and loses the answers and
 * the case's input and expected value. `record_responses` stays what the run recorded: it says
 * whether the promoted run (promoted_from) holds answers, which a baseline never does.
 */
export function baselineOf(run: RunDocument, promotedFrom: string, promotedAt: string): BaselineDocument {
  return { ...run, results: run.results.map(withoutResponses), promoted_at: promotedAt, promoted_from: promotedFrom }
}

/** The run document inside a baseline (the baseline without its two promotion fields). */
export function runOfBaseline(baseline: BaselineDocument): RunDocument {
  const { promoted_at: _at, promoted_from: _from, ...run } = baseline
  return run
}

/** The run document's bytes, with the promotion fields as two more header lines before `aggregates`. */
export function serializeBaseline(baseline: BaselineDocument): string {
  const text = serializeRun(runOfBaseline(baseline))
  const at = text.indexOf(AGGREGATES_MARKER)
  const extra = BASELINE_HEADER_KEYS.map((key) => `\n  ${JSON.stringify(key)}: ${JSON.stringify(baseline[key])},`).join('')
  return `${text.slice(0, at)}${extra}${text.slice(at)}`
}

export function serializeRegisterEntry(entry: RegisterEntry): string {
  return JSON.stringify({
    promoted_at: entry.promoted_at,
    suite: entry.suite,
    key: entry.key,
    replaced: entry.replaced,
    config_hash: entry.config_hash,
    cases: entry.cases,
    passed: entry.passed,
    failed: entry.failed,
    pass_rate: entry.pass_rate,
  })
}
