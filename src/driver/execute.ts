// The driver: asks the target for every sample of every case, scores each answer with every scorer,
// and turns the scores into case verdicts. It touches nothing but the target and scorers it is
// handed; the per-case hook (the journal) is how anything leaves it before the run ends.
import { InternalError } from '../errors/base.js'
import { ObservedIdentityChangedError } from './errors.js'
import { preview } from '../suite/preview.js'
import type { CaseResult, ErrorCause, Observed, SampleResult, ScorerScore } from '../document/schema.js'
import { redactor } from '../models/redaction.js'
import { describeNotPlain, findNotPlain } from '../suite/plain-data.js'
import type { EvalCase, ResolvedScorer, ResolvedSuite, ScorerReturn, TargetAnswer, TokenUsage } from '../suite/types.js'
import { runPool, SerialQueue } from './limiter.js'
import { describeIdentityChange, ObservedIdentity } from './observed-identity.js'
import type { OnCase } from '../document/case-progress.js'
import type { Budget } from '../suite/types.js'
import type { CachedTargetAnswer } from '../suite/cache-key.js'
import { BudgetMeter, BudgetStop } from './budget.js'

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
   * slots may overlap, so cases that finish together can share one durable write (group commit).
   */
  keep?: OnCase
  /** The case's hooks: one at a time, in the order the cases were kept. */
  onCase?: OnCase
  signal?: AbortSignal
  /** Answers from the response cache, by case id and sample index: not asked for again. */
  cached?: ReadonlyMap<string, readonly (CachedTargetAnswer | undefined)[]>
  /** Hears every answer the target gave this launch (the response cache keeps them). */
  onAnswer?: (caseId: string, sample: number, answer: CachedTargetAnswer) => Promise<void>
  /** Once reached, no new case starts (src/driver/budget.ts); execute then throws BudgetStop. */
  budget?: Budget
}

export interface Execution {
  /** In suite order, done ones included; with `only`, just the selected cases. */
  results: CaseResult[]
  observed: Observed
  /** Calls to the target actually made by this execution. */
  targetCalls: number
}

/** A sample passes when every scorer passes; a case when at least this many samples pass. */
export function requiredPasses(minAgreement: number, samples: number): number {
  // The epsilon keeps float noise (0.7 * 10 = 7.000000000000001) from demanding one more sample.
  return Math.max(0, Math.ceil(minAgreement * samples - 1e-9))
}

export async function execute(options: ExecuteOptions): Promise<Execution> {
  const { suite, keep, onCase, signal } = options
  const done = options.done ?? new Map<string, CaseResult>()
  refuseUnknownDone(suite, done)
  signal?.throwIfAborted()

  const positions = suite.cases.map((evalCase, index) => ({ evalCase, index })).filter(({ evalCase }) => options.only === undefined || options.only.has(evalCase.id))
  const results: (CaseResult | undefined)[] = positions.map(({ evalCase }) => done.get(evalCase.id))
  const toRun = positions.map((p, slot) => ({ ...p, slot })).filter((p) => results[p.slot] === undefined)

  const identity = new ObservedIdentity(options.observedSeed)
  // One controller per case in flight, not one signal shared by every call: a target that hands
  // its signal to fetch leaves a listener on it per request, which a shared signal would collect
  // for the whole run.
  const inFlight = new Set<AbortController>()
  let stopped: { reason: unknown } | undefined
  const stop = (reason: unknown): void => {
    if (stopped !== undefined) return
    stopped = { reason }
    for (const controller of inFlight) controller.abort(reason)
  }
  const onExternalAbort = (): void => stop(signal!.reason)
  signal?.addEventListener('abort', onExternalAbort, { once: true })

  const calls = { count: 0 }
  const meter = options.budget === undefined ? undefined : new BudgetMeter(options.budget, suite)
  let budgetReached = false
  // A target or scorer of the user's own may put an API key of the environment in its error.
  const redact = redactor([])
  const hooks = new SerialQueue()
  try {
    await runPool(
      toRun,
      suite.concurrency,
      async ({ evalCase, index, slot }) => {
        const cached = options.cached?.get(evalCase.id)
        const reserved = suite.rules.samples - (cached?.filter((a) => a !== undefined).length ?? 0)
        if (meter !== undefined && !meter.admit(reserved)) {
          budgetReached = true
          return
        }
        const controller = new AbortController()
        if (stopped !== undefined) controller.abort(stopped.reason)
        inFlight.add(controller)
        const made = { count: 0 }
        const source: AnswerSource = { cached, onAnswer: options.onAnswer, calls: made }
        const { result, cause } = await runCase(suite, evalCase, identity, controller.signal, source, redact).finally(() => {
          inFlight.delete(controller)
          calls.count += made.count
        })
        meter?.settle(reserved, made.count, result, identity.snapshot())
        results[slot] = result
        if ((keep === undefined && onCase === undefined) || stopped !== undefined) return
        const progress = { result, cause, observed: identity.snapshot(), index }
        try {
          await keep?.(progress)
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

/** Why a case errored: which layer, and the sentence the document keeps. */
class CaseError extends Error {
  constructor(
    readonly layer: ErrorCause,
    message: string,
  ) {
    super(message)
  }
}

interface Answer {
  output: unknown
  usage: TokenUsage | undefined
  /** Whole milliseconds the target took; measured only when the suite gates on latency. */
  latencyMs?: number
  /** It came from the response cache, not from a call. */
  cached: boolean
}

/** A target's answer that has the right shape. */
interface CheckedAnswer {
  output: unknown
  usage: TokenUsage | undefined
  model: string | undefined
}

/** Where a case's answers come from: the cache first, else a call (counted, and handed to onAnswer). */
interface AnswerSource {
  cached: readonly (CachedTargetAnswer | undefined)[] | undefined
  onAnswer: ExecuteOptions['onAnswer']
  calls: { count: number }
}

async function runCase(
  suite: ResolvedSuite,
  evalCase: EvalCase,
  identity: ObservedIdentity,
  signal: AbortSignal,
  source: AnswerSource,
  redact: (text: string) => string,
): Promise<{ result: CaseResult; cause: ErrorCause | null }> {
  try {
    const answers = await askSamples(suite, evalCase, identity, signal, source)
    // Sized up front: a result is held until the run ends, and an array grown by push keeps 17 slots.
    const samples = new Array<SampleResult>(answers.length)
    for (const [i, answer] of answers.entries()) samples[i] = await scoreSample(suite, evalCase, answer, i, identity, signal)
    return { result: verdict(suite, evalCase, samples), cause: null }
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

async function askSamples(suite: ResolvedSuite, evalCase: EvalCase, identity: ObservedIdentity, signal: AbortSignal, source: AnswerSource): Promise<Answer[]> {
  const { samples } = suite.rules
  const timed = suite.rules.tolerances.latency_per_case !== undefined
  const answers: Answer[] = []
  for (let sample = 0; sample < samples; sample++) {
    const where = sampleLabel(sample, samples)
    if (signal.aborted) throw new CaseError('target', `${where}: not asked, the run was stopped`)
    const hit = source.cached?.[sample]
    let raw: TargetAnswer
    let latencyMs: number | undefined
    if (hit !== undefined) raw = hit
    else {
      try {
        source.calls.count++
        const started = performance.now()
        raw = await suite.ask(evalCase.input, { caseId: evalCase.id, sample, signal })
        if (timed) latencyMs = Math.round(performance.now() - started)
      } catch (error) {
        throw new CaseError('target', `${where}: ${messageOf(error)}`)
      }
    }
    const answer = checkAnswer(raw, suite.recordResponses)
    if (typeof answer === 'string') throw new CaseError('target', `${where}: malformed answer: ${answer}`)
    try {
      identity.seeTarget(answer.model)
    } catch (error) {
      throw new CaseError('target', `${where}: ${messageOf(error)}`)
    }
    if (hit === undefined && source.onAnswer !== undefined) await source.onAnswer(evalCase.id, sample, withoutUndefined(answer))
    answers.push({ output: answer.output, usage: answer.usage, cached: hit !== undefined, ...(latencyMs === undefined ? {} : { latencyMs }) })
  }
  return answers
}

function withoutUndefined(answer: CheckedAnswer): CachedTargetAnswer {
  return { output: answer.output, ...(answer.model === undefined ? {} : { model: answer.model }), ...(answer.usage === undefined ? {} : { usage: answer.usage }) }
}

/** The answer, or why it is malformed. */
function checkAnswer(raw: unknown, record: boolean): CheckedAnswer | string {
  if (raw === null || typeof raw !== 'object' || !('output' in raw)) return 'the target must answer { output, model?, usage? }'
  const { output, model, usage } = raw as TargetAnswer
  if (model !== undefined && (typeof model !== 'string' || model === '')) return `model must be a non-empty string, got ${preview(model)}`
  if (usage !== undefined && !isUsage(usage)) return `usage must be { input_tokens, output_tokens } of non-negative integers, got ${preview(usage)}`
  if (record) {
    const offence = findNotPlain(output, ['output'])
    if (offence !== undefined) return `the answer cannot be recorded (recordResponses is true): ${describeNotPlain(offence)}`
  }
  return { output, model, usage: usage === undefined ? undefined : { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens } }
}

function isUsage(value: unknown): value is TokenUsage {
  if (value === null || typeof value !== 'object') return false
  const { input_tokens, output_tokens } = value as Record<string, unknown>
  return [input_tokens, output_tokens].every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0)
}

async function scoreSample(suite: ResolvedSuite, evalCase: EvalCase, answer: Answer, index: number, identity: ObservedIdentity, signal: AbortSignal): Promise<SampleResult> {
  const args = { input: evalCase.input, output: answer.output, expected: evalCase.expected, caseId: evalCase.id, signal, recorded: suite.recordResponses }
  const settled = await Promise.allSettled(suite.scorers.map(async (scorer) => scorer.score(args)))
  // map, not push: the scores are held until the run ends, in an array of exactly their number.
  const scores = settled.map((outcome, i): ScorerScore => {
    const scorer = suite.scorers[i]!
    const where = `${sampleLabel(index, suite.rules.samples)}, scorer ${JSON.stringify(scorer.name)}`
    if (outcome.status === 'rejected') throw new CaseError('scorer', `${where}: ${messageOf(outcome.reason)}`)
    const normal = normalizeScore(outcome.value, scorer)
    if (typeof normal === 'string') throw new CaseError('scorer', `${where}: ${normal}`)
    try {
      identity.seeJudge(scorer.name, normal.model)
    } catch (error) {
      throw new CaseError('scorer', `${where}: ${messageOf(error)}`)
    }
    const score: ScorerScore = { name: scorer.name, pass: normal.pass, score: normal.score, reason: normal.reason }
    if (normal.usage !== undefined) score.usage = normal.usage
    return score
  })
  const sample: SampleResult = { pass: scores.every((s) => s.pass), score: mean(scores.map((s) => s.score)), scorers: scores }
  if (answer.usage !== undefined) sample.usage = answer.usage
  if (answer.latencyMs !== undefined) sample.latency_ms = answer.latencyMs
  if (answer.cached) sample.cached = true
  if (suite.recordResponses && answer.output !== undefined) sample.output = jsonValue(answer.output)
  return sample
}

interface NormalScore {
  pass: boolean
  score: number
  reason: string | null
  model: string | undefined
  usage?: TokenUsage
}

const RETURNS = 'a scorer returns a boolean, a number in 0..1, or { pass, score?, reason?, model?, usage? }'

/** A scorer's return in its one shape, or why it is not a score. */
function normalizeScore(value: ScorerReturn, scorer: ResolvedScorer): NormalScore | string {
  if (typeof value === 'boolean') return { pass: value, score: value ? 1 : 0, reason: value ? null : 'returned false', model: undefined }
  if (typeof value === 'number') {
    const score = unitScore(value)
    if (score === undefined) return `returned the score ${preview(value)}, outside 0..1`
    const pass = score >= scorer.passAt
    return { pass, score, reason: pass ? null : `score ${score} is below pass_at ${scorer.passAt}`, model: undefined }
  }
  if (value === null || typeof value !== 'object') return `returned ${preview(value)}; ${RETURNS}`
  const { pass, score, reason, model, usage } = value as unknown as Partial<Record<string, unknown>>
  if (typeof pass !== 'boolean') return `returned pass = ${preview(pass)}, not a boolean; ${RETURNS}`
  const checked = score === undefined ? (pass ? 1 : 0) : typeof score === 'number' ? unitScore(score) : undefined
  if (checked === undefined) return `returned the score ${preview(score)}, outside 0..1`
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return `returned reason = ${preview(reason)}, not a string`
  if (model !== undefined && (typeof model !== 'string' || model === '')) return `returned model = ${preview(model)}, not a non-empty string`
  if (usage !== undefined && !isUsage(usage)) return `returned usage = ${preview(usage)}, not { input_tokens, output_tokens } of non-negative integers`
  const said = typeof reason === 'string' ? reason : null
  const normal: NormalScore = { pass, score: checked, reason: said ?? (pass ? null : `did not pass (score ${checked})`), model }
  if (usage !== undefined) normal.usage = { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens }
  return normal
}

/** The score within 0..1; float noise at the bounds is clamped, anything further out is refused. */
function unitScore(value: number): number | undefined {
  if (!Number.isFinite(value) || value < -1e-9 || value > 1 + 1e-9) return undefined
  return Math.min(1, Math.max(0, value))
}

function verdict(suite: ResolvedSuite, evalCase: EvalCase, samples: SampleResult[]): CaseResult {
  const { samples: count, min_agreement } = suite.rules
  const passed = samples.filter((s) => s.pass).length
  const pass = passed >= requiredPasses(min_agreement, count)
  let reason: string | null = null
  if (!pass) {
    const failing = samples.findIndex((s) => !s.pass)
    const scorer = samples[failing]!.scorers.find((s) => !s.pass)!
    reason = `${passed}/${count} samples passed; sample ${failing}, ${scorer.name}: ${scorer.reason ?? 'did not pass'}`
  }
  const result: CaseResult = {
    case_id: evalCase.id,
    verdict: pass ? 'pass' : 'fail',
    score: mean(samples.map((s) => s.score)),
    passed_samples: passed,
    reason,
    error: null,
    samples,
  }
  return withCaseRecord(suite, evalCase, result)
}

function withCaseRecord(suite: ResolvedSuite, evalCase: EvalCase, result: CaseResult): CaseResult {
  if (!suite.recordResponses) return result
  if (evalCase.input !== undefined) result.input = jsonValue(evalCase.input)
  if (evalCase.expected !== undefined) result.expected = jsonValue(evalCase.expected)
  return result
}

/** The value as the document will hold it, so a result read back from the journal equals this one. */
function jsonValue(value: unknown): unknown {
  const text = JSON.stringify(value)
  return text === undefined ? undefined : (JSON.parse(text) as unknown)
}

/** Samples are numbered from 0 in every message, as ctx.sample numbers them. */
function sampleLabel(sample: number, samples: number): string {
  return `sample ${sample} of ${samples}`
}

function mean(values: readonly number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return values.length === 0 ? 0 : sum / values.length
}

function messageOf(error: unknown): string {
  if (error instanceof ObservedIdentityChangedError) return describeIdentityChange(error)
  if (error instanceof Error) return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message
  return preview(error)
}
