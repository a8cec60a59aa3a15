// The driver: asks the target for every sample of every case, scores each answer with every scorer,
// and turns the scores into case verdicts. It touches nothing but the target and scorers it is
// handed; the per-case hook (the journal) is how anything leaves it before the run ends.
import { InternalError } from '../errors/base.js'
import type { CaseResult, Observed, SampleResult } from '../document/schema.js'
import { redactor } from '../models/redaction.js'
import type { EvalCase, ResolvedSuite } from '../suite/types.js'
import { runPool, SerialQueue } from './limiter.js'
import { NO_SPANS, runSpans, type CaseSpan, type RunSpans } from './spans.js'
import { ObservedIdentity } from './observed-identity.js'
import { CaseSignal } from './case-signal.js'
import type { KeepCase, OnCase } from '../document/case-progress.js'
import type { Budget } from '../suite/types.js'
import type { CachedTargetAnswer } from '../suite/cache-key.js'
import type { ToolReplayer } from '../suite/tool-replay.js'
import { BudgetMeter, BudgetStop } from './budget.js'
import { conversationCallsOf } from '../suite/conversation.js'
import { CaseError, type CaseContext, type SampleStep } from './sample-step.js'
import { jsonValue, singleAnswerStep } from './single-answer-step.js'
import { caseOutcome, samplingBounds } from './case-verdict.js'
import { samplingStopAfter, type SamplingStop } from '../stats/sampling-stop.js'

export interface ExecuteOptions {
  suite: ResolvedSuite
  /** Cases already judged (a resumed run): not called, placed at the suite's positions. */
  done?: ReadonlyMap<string, CaseResult>
  /** Run only these case ids (Vitest name filters). */
  only?: ReadonlySet<string>
  /** The observed identities an earlier leg of this run pinned. */
  observedSeed?: Observed
  /**
   * Keeps a finished case (the journal) before its hooks run. Unlike `onCase`, calls from different
   * slots may overlap, so cases that finish together can share one durable write (group commit);
   * `alone` says that no other case is being asked, so nothing could share it.
   */
  keep?: KeepCase
  /** The case's hooks: one at a time, in the order the cases were kept. */
  onCase?: OnCase
  signal?: AbortSignal
  /** Answers from the response cache, by case id and sample index: not asked for again. */
  cached?: ReadonlyMap<string, readonly (CachedTargetAnswer | undefined)[]>
  /** Hears every answer the target gave this launch (the response cache keeps them). */
  onAnswer?: (caseId: string, sample: number, answer: CachedTargetAnswer) => Promise<void>
  /** Tool replay (SPEC §16), when the launch has it on: the target gets one per answer as ctx.tools. */
  tools?: ToolReplayer
  /** Once reached, no new case starts (src/driver/budget.ts); execute then throws BudgetStop. */
  budget?: Budget
  /** How one sample is asked, checked and scored; the single-answer step unless a case type brings its own. */
  step?: SampleStep
}

export interface Execution {
  /** In suite order, done ones included; with `only`, just the selected cases. */
  results: CaseResult[]
  observed: Observed
  /** Calls actually made by this execution, as the budget counts them (an agent's every model call). */
  targetCalls: number
}

/** A sample passes when every scorer passes; a case when at least requiredPasses samples pass (case-verdict.ts). */
export { requiredPasses } from './case-verdict.js'

export async function execute(options: ExecuteOptions): Promise<Execution> {
  const { suite, keep, onCase, signal } = options
  const step = options.step ?? singleAnswerStep
  const done = options.done ?? new Map<string, CaseResult>()
  refuseUnknownDone(suite, done)
  signal?.throwIfAborted()

  const positions = suite.cases.map((evalCase, index) => ({ evalCase, index })).filter(({ evalCase }) => options.only === undefined || options.only.has(evalCase.id))
  const results: (CaseResult | undefined)[] = positions.map(({ evalCase }) => done.get(evalCase.id))
  const toRun = positions.map((p, slot) => ({ ...p, slot })).filter((p) => results[p.slot] === undefined)

  const identity = new ObservedIdentity(options.observedSeed)
  // One signal per case in flight, not one shared by every call: a target that hands its signal to
  // fetch leaves a listener on it per request, which a shared signal would collect for the whole run.
  const inFlight = new Set<CaseSignal>()
  let stopped: { reason: unknown } | undefined
  const stop = (reason: unknown): void => {
    if (stopped !== undefined) return
    stopped = { reason }
    for (const caseStop of inFlight) caseStop.abort(reason)
  }
  const onExternalAbort = (): void => stop(signal!.reason)
  signal?.addEventListener('abort', onExternalAbort, { once: true })

  const calls = { count: 0 }
  const meter = options.budget === undefined ? undefined : new BudgetMeter(options.budget, suite)
  let budgetReached = false
  // A target or scorer of the user's own may put an API key of the environment in its error.
  const redact = redactor([])
  const hooks = new SerialQueue()
  const spans = toRun.length === 0 ? undefined : await runSpans()
  try {
    await runPool(
      toRun,
      suite.concurrency,
      async ({ evalCase, index, slot }) => {
        const cached = options.cached?.get(evalCase.id)
        const asked = suite.rules.samples - (cached?.filter((a) => a !== undefined).length ?? 0)
        const reserved = suite.conversation === undefined ? asked : asked * conversationCallsOf(evalCase.input, suite.conversation.user)
        if (meter !== undefined && !meter.admit(reserved)) {
          budgetReached = true
          return
        }
        const caseStop = new CaseSignal()
        if (stopped !== undefined) caseStop.abort(stopped.reason)
        inFlight.add(caseStop)
        const made = { count: 0 }
        const context: CaseContext = { suite, evalCase, stop: caseStop, identity, cached, onAnswer: options.onAnswer, calls: made, tools: options.tools }
        let traced: Awaited<ReturnType<typeof tracedCase>>
        try {
          traced = await tracedCase(context, step, redact, spans)
        } finally {
          inFlight.delete(caseStop)
          calls.count += made.count
        }
        const { result, cause } = traced
        meter?.settle(reserved, made.count, result, identity.snapshot())
        results[slot] = result
        if ((keep === undefined && onCase === undefined) || stopped !== undefined) return
        const progress = { result, cause, observed: identity.snapshot(), index }
        try {
          await keep?.(progress, inFlight.size === 0)
        } catch (error) {
          stop(error)
          throw error
        }
        if (onCase === undefined) return
        await hooks.run(async () => {
          if (stopped !== undefined) return
          try {
            await onCase(progress)
          } catch (error) {
            stop(error)
            throw error
          }
        })
      },
      () => stopped !== undefined || budgetReached,
    )
  } finally {
    signal?.removeEventListener('abort', onExternalAbort)
  }
  if (stopped !== undefined) throw stopped.reason
  if (budgetReached) throw new BudgetStop(options.budget!, meter!.spent, results.filter((r) => r === undefined).length)
  return { results: results as CaseResult[], observed: identity.snapshot(), targetCalls: calls.count }
}

function refuseUnknownDone(suite: ResolvedSuite, done: ReadonlyMap<string, CaseResult>): void {
  const declared = new Set(suite.cases.map((c) => c.id))
  for (const [id, result] of done) {
    if (!declared.has(id)) {
      // a resume whose cases changed is refused before execute, so this is digline's own defect
      throw new InternalError(
        `a judged case ${JSON.stringify(id)} was handed to suite ${JSON.stringify(suite.name)}, which declares no such case; a run is never assembled out of two suites`,
        ['done', id],
      )
    }
    if (result.case_id !== id) {
      throw new InternalError(`the judged case filed as ${JSON.stringify(id)} is the result of case ${JSON.stringify(result.case_id)}`, ['done', id])
    }
  }
}

/** The case in its span (spans.ts), each sample in its own; without the tracing API, just the case (no frame of its own to wait in). */
function tracedCase(context: CaseContext, step: SampleStep, redact: (text: string) => string, spans: RunSpans | undefined): ReturnType<typeof runCase> {
  if (spans === undefined || spans === NO_SPANS) return runCase(context, step, redact)
  return inSpan(context, step, redact, spans.startCase(context.suite, context.evalCase))
}

async function inSpan(context: CaseContext, step: SampleStep, redact: (text: string) => string, span: CaseSpan): ReturnType<typeof runCase> {
  try {
    const outcome = await runCase(context, (ctx, sample) => span.sample(sample, () => step(ctx, sample)), redact)
    span.end(outcome.result)
    return outcome
  } catch (error) {
    span.end(undefined)
    throw error
  }
}

async function runCase(context: CaseContext, step: SampleStep, redact: (text: string) => string): Promise<{ result: CaseResult; cause: CaseError['layer'] | null }> {
  const { suite, evalCase } = context
  try {
    // Sized up front: a result is held until the run ends, and an array grown by push keeps 17 slots.
    const samples = new Array<SampleResult>(suite.rules.samples)
    const bounds = samplingBounds(suite.rules)
    if (bounds === undefined) {
      for (let sample = 0; sample < samples.length; sample++) samples[sample] = await step(context, sample)
      return { result: verdict(suite, evalCase, samples), cause: null }
    }
    // Adaptive samples (ADR 0360): whether to take another depends on this case's own samples only,
    // so a resumed run, whose journal holds them, reaches the same record.
    let passed = 0
    let stopped: SamplingStop | undefined
    for (let taken = 0; stopped === undefined;) {
      const sample = await step(context, taken)
      samples[taken++] = sample
      if (sample.pass) passed++
      stopped = samplingStopAfter(passed, taken, bounds)
      if (stopped !== undefined) samples.length = taken
    }
    return { result: verdict(suite, evalCase, samples, stopped), cause: null }
  } catch (error) {
    if (!(error instanceof CaseError)) throw error
    const result: CaseResult = {
      case_id: evalCase.id,
      verdict: 'error',
      score: null,
      passed_samples: 0,
      reason: null,
      error: { cause: error.layer, message: redact(error.message) },
      samples: [],
    }
    return { result: withCaseRecord(suite, evalCase, result), cause: error.layer }
  }
}

function verdict(suite: ResolvedSuite, evalCase: EvalCase, samples: SampleResult[], stopped?: SamplingStop): CaseResult {
  const { verdict, score, passed_samples, reason } = caseOutcome(samples, suite.rules)
  const result: CaseResult = { case_id: evalCase.id, verdict, score, passed_samples, reason, error: null, samples }
  if (stopped !== undefined) result.sampling_stopped = stopped
  return withCaseRecord(suite, evalCase, result)
}

function withCaseRecord(suite: ResolvedSuite, evalCase: EvalCase, result: CaseResult): CaseResult {
  if (evalCase.tags !== undefined && evalCase.tags.length > 0) result.tags = [...evalCase.tags]
  if (evalCase.metadata !== undefined) result.metadata = jsonValue(evalCase.metadata) as Record<string, unknown>
  if (evalCase.cluster !== undefined) result.cluster = evalCase.cluster
  if (!suite.recordResponses) return result
  if (evalCase.input !== undefined) result.input = jsonValue(evalCase.input)
  if (evalCase.expected !== undefined) result.expected = jsonValue(evalCase.expected)
  return result
}
