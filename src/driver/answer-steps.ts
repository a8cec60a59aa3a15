// An agent's steps as the driver takes them from a target's answer (SPEC §16): checked against the
// answer shape, summed into the sample's usage, counted as model calls for the budget, and cut down
// to what the document may hold when the run does not record responses (ADR 0270).
import { usageFrom } from '../document/answer-shape.js'
import { describeNotPlain, findNotPlain } from '../suite/plain-data.js'
import { preview } from '../suite/preview.js'
import type { AnswerStep, ModelCallStep, ToolCallStep } from '../suite/steps.js'
import type { TokenUsage } from '../suite/types.js'

/** More steps than this in one answer is taken for a runaway loop, not a trajectory. */
export const MAX_STEPS = 10_000

const STEP_WANTED = "{ type: 'model', model?, usage?, latency_ms? } or { type: 'tool', name, arguments?, result?, error?, latency_ms? }"

/** The steps as the scorers see them (tool calls with `ok`), or why they are malformed. */
export function checkSteps(raw: unknown, record: boolean): AnswerStep[] | string {
  if (!Array.isArray(raw)) return `steps must be a list of ${STEP_WANTED}, got ${preview(raw)}`
  if (raw.length > MAX_STEPS) return `steps holds ${raw.length} steps, more than ${MAX_STEPS}`
  const out = new Array<AnswerStep>(raw.length)
  for (let i = 0; i < raw.length; i++) {
    const step = checkStep(raw[i], i, record)
    if (typeof step === 'string') return step
    out[i] = step
  }
  return out
}

function checkStep(raw: unknown, i: number, record: boolean): AnswerStep | string {
  const where = `steps[${i}]`
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return `${where} must be ${STEP_WANTED}, got ${preview(raw)}`
  const step = raw as Record<string, unknown>
  const latency = latencyOf(step.latency_ms)
  if (typeof latency === 'string') return `${where}.latency_ms ${latency}`
  if (step.type === 'model') {
    if (step.model !== undefined && (typeof step.model !== 'string' || step.model === '')) return `${where}.model must be a non-empty string, got ${preview(step.model)}`
    const usage = step.usage === undefined ? undefined : usageFrom(step.usage)
    if (typeof usage === 'string') return `${where}.usage must be ${usage}, got ${preview(step.usage)}`
    const out: ModelCallStep = { type: 'model' }
    if (step.model !== undefined) out.model = step.model as string
    if (usage !== undefined) out.usage = usage
    if (latency !== undefined) out.latency_ms = latency
    return out
  }
  if (step.type !== 'tool') return `${where}.type must be 'model' or 'tool', got ${preview(step.type)}`
  if (typeof step.name !== 'string' || step.name === '') return `${where}.name must be the tool's name, got ${preview(step.name)}`
  const error = step.error instanceof Error ? step.error.message : step.error
  if (error !== undefined && typeof error !== 'string') return `${where}.error must be the tool's error message, got ${preview(step.error)}`
  const out: ToolCallStep = { type: 'tool', name: step.name, ok: error === undefined }
  if (latency !== undefined) out.latency_ms = latency
  for (const key of ['arguments', 'result'] as const) {
    const value = step[key]
    if (value === undefined) continue
    if (record) {
      const offence = findNotPlain(value, ['steps', i, key])
      if (offence !== undefined) return `the answer cannot be recorded (recordResponses is true): ${describeNotPlain(offence)}`
    }
    out[key] = value
  }
  if (error !== undefined) out.error = error
  return out
}

function latencyOf(value: unknown): number | undefined | string {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `must be a duration in ms ≥ 0, got ${preview(value)}`
  return Math.round(value)
}

/** The sum of the model calls' usage, or undefined when none reported any. */
export function stepsUsage(steps: readonly AnswerStep[]): TokenUsage | undefined {
  let sum: TokenUsage | undefined
  for (const step of steps) {
    if (step.type !== 'model' || step.usage === undefined) continue
    sum ??= { input_tokens: 0, output_tokens: 0 }
    sum.input_tokens += step.usage.input_tokens
    sum.output_tokens += step.usage.output_tokens
  }
  return sum
}

/**
 * The steps as the document holds them: whole (as JSON) when the run records responses; otherwise
 * counts, model ids, usage, durations, tool names and whether each call failed — never a tool's
 * arguments, result or error message, which may quote the user's data.
 */
export function stepsForDocument(steps: readonly AnswerStep[], record: boolean): AnswerStep[] {
  return steps.map((step) => {
    if (step.type === 'model') return { ...step }
    const out: ToolCallStep = { type: 'tool', name: step.name, ok: step.ok }
    if (step.latency_ms !== undefined) out.latency_ms = step.latency_ms
    if (!record) return out
    if (step.arguments !== undefined) out.arguments = asJson(step.arguments)
    if (step.result !== undefined) out.result = asJson(step.result)
    if (step.error !== undefined) out.error = step.error
    return out
  })
}

function asJson(value: unknown): unknown {
  const text = JSON.stringify(value)
  return text === undefined ? null : (JSON.parse(text) as unknown)
}
