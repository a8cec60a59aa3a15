// The spans of a run through `@opentelemetry/api` (ADR 0330), loaded only where the project has it
// (spans.ts). The names and attributes follow OpenTelemetry's GenAI conventions for model and tool
// calls; digline's own are under `digline.`. Steps and turns are reported by the target after the
// fact with their durations, not their start times: their spans are laid end to end from the
// sample's start, as the report's timeline draws them. A cached answer made no call: its steps get
// no span. Arguments, results, error messages and turn text come from the sample as the document
// holds it, so they are there only when the run records responses.
import type { CaseResult } from '../document/schema.js'
import type { AnswerStep } from '../suite/steps.js'
import type { AnswerTurn } from '../suite/turns.js'
import type { EvalCase, ResolvedSuite } from '../suite/types.js'
import type { CaseSpan, RunSpans } from './span-hooks.js'
import { DIGLINE_VERSION } from '../version.js'

// The few parts of @opentelemetry/api used here (its types stay out of digline's own).
type Attributes = Record<string, string | number | boolean | string[]>
interface Span {
  setAttributes(attributes: Attributes): void
  setStatus(status: { code: number; message?: string }): void
  end(endTime?: number): void
}
type Context = object
interface Tracer {
  startSpan(name: string, options: { attributes?: Attributes; startTime?: number; kind?: number }, context?: Context): Span
}
export interface TracingApi {
  trace: { getTracer(name: string, version?: string): Tracer; setSpan(context: Context, span: Span): Context }
  context: { active(): Context; with<T>(context: Context, run: () => T): T }
}

const ERROR = 2
const now = (): number => performance.timeOrigin + performance.now()

function usageAttributes(usage: { input_tokens: number; output_tokens: number } | undefined): Attributes {
  return usage === undefined ? {} : { 'gen_ai.usage.input_tokens': usage.input_tokens, 'gen_ai.usage.output_tokens': usage.output_tokens }
}

const json = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'))

export function otelSpans(api: TracingApi): RunSpans {
  const tracer = api.trace.getTracer('digline', DIGLINE_VERSION)

  /** A step's span from `start`; returns where the next one starts. */
  function stepSpan(step: AnswerStep, index: number, parent: Context, start: number): number {
    const end = start + (step.latency_ms ?? 0)
    if (step.type === 'model') {
      const span = tracer.startSpan(
        step.model === undefined ? 'chat' : `chat ${step.model}`,
        {
          kind: 2,
          startTime: start,
          attributes: {
            'gen_ai.operation.name': 'chat',
            ...(step.model === undefined ? {} : { 'gen_ai.response.model': step.model }),
            ...usageAttributes(step.usage),
            'digline.step.index': index,
          },
        },
        parent,
      )
      span.end(end)
      return end
    }
    const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': step.name, 'digline.step.index': index, 'digline.tool.ok': step.ok }
    if (step.arguments !== undefined) attributes['gen_ai.tool.call.arguments'] = json(step.arguments)
    if (step.result !== undefined) attributes['gen_ai.tool.call.result'] = json(step.result)
    const span = tracer.startSpan(`execute_tool ${step.name}`, { startTime: start, attributes }, parent)
    if (!step.ok) span.setStatus(step.error === undefined ? { code: ERROR } : { code: ERROR, message: step.error })
    span.end(end)
    return end
  }

  function stepSpans(steps: readonly AnswerStep[], parent: Context, start: number): number {
    let at = start
    steps.forEach((step, i) => (at = stepSpan(step, i, parent, at)))
    return at
  }

  function turnSpans(turns: readonly AnswerTurn[], parent: Context, start: number): void {
    let at = start
    turns.forEach((turn, index) => {
      const attributes: Attributes = { 'digline.turn.index': index, 'digline.turn.role': turn.role, ...usageAttributes(turn.usage) }
      if (turn.content !== undefined) attributes['digline.turn.content'] = json(turn.content)
      const span = tracer.startSpan('digline.turn', { startTime: at, attributes }, parent)
      const stepsEnd = stepSpans(turn.steps ?? [], api.trace.setSpan(parent, span), at)
      const end = turn.latency_ms === undefined ? stepsEnd : Math.max(stepsEnd, at + turn.latency_ms)
      span.end(end)
      at = end
    })
  }

  function startCase(suite: ResolvedSuite, evalCase: EvalCase): CaseSpan {
    const attributes: Attributes = { 'digline.suite': suite.name, 'digline.case.id': evalCase.id, 'digline.record_responses': suite.recordResponses }
    if (evalCase.tags !== undefined && evalCase.tags.length > 0) attributes['digline.case.tags'] = [...evalCase.tags]
    const span = tracer.startSpan('digline.case', { attributes }, api.context.active())
    const caseContext = api.trace.setSpan(api.context.active(), span)
    return {
      async sample(index, run) {
        const start = now()
        const sampleSpan = tracer.startSpan('digline.sample', { startTime: start, attributes: { 'digline.case.id': evalCase.id, 'digline.sample.index': index } }, caseContext)
        const inner = api.trace.setSpan(caseContext, sampleSpan)
        try {
          const result = await api.context.with(inner, run)
          sampleSpan.setAttributes({
            'digline.sample.pass': result.pass,
            'digline.sample.score': result.score,
            ...usageAttributes(result.usage),
            ...(result.cached === true ? { 'digline.sample.cached': true } : {}),
          })
          if (result.cached !== true) {
            if (result.turns !== undefined) turnSpans(result.turns, inner, start)
            else if (result.steps !== undefined) stepSpans(result.steps, inner, start)
          }
          return result
        } catch (error) {
          sampleSpan.setStatus({ code: ERROR })
          throw error
        } finally {
          sampleSpan.end()
        }
      },
      end(result: CaseResult | undefined) {
        if (result === undefined) {
          span.setStatus({ code: ERROR, message: 'the run stopped' })
          span.end()
          return
        }
        span.setAttributes({
          'digline.case.verdict': result.verdict,
          'digline.case.passed_samples': result.passed_samples,
          ...(result.score === null ? {} : { 'digline.case.score': result.score }),
        })
        if (result.error !== null) {
          span.setAttributes({ 'digline.case.error.cause': result.error.cause })
          span.setStatus({ code: ERROR, message: result.error.message })
        }
        span.end()
      },
    }
  }

  return { startCase }
}
