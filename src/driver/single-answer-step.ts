// The default sample step: one question, one answer. The answer comes from the response cache or
// from one call to the target (counted, and timed when the suite gates on latency); it is checked
// against the answer shape (document/answer-shape.ts), its model pinned as the observed identity,
// and every scorer scores it.
import { sampleOutcome } from './case-verdict.js'
import { ObservedIdentityChangedError } from './errors.js'
import { cachedAnswerOf, usageFrom } from '../document/answer-shape.js'
import type { SampleResult, ScorerScore } from '../document/schema.js'
import { describeNotPlain, findNotPlain } from '../suite/plain-data.js'
import { preview } from '../suite/preview.js'
import type { ResolvedScorer, ScorerArgs, ScorerReturn, TargetAnswer, TargetContext, TokenUsage } from '../suite/types.js'
import { describeIdentityChange } from './observed-identity.js'
import { isBorderline } from './borderline.js'
import { CaseError, type CaseContext, type SampleStep } from './sample-step.js'
import { checkSteps, stepsForDocument, stepsUsage } from './answer-steps.js'
import { modelCallsOf, type AnswerStep } from '../suite/steps.js'
import { stepsOfTurns, type AnswerTurn } from '../suite/turns.js'
import { checkTurns, turnsForDocument, turnsUsage } from './answer-turns.js'

/** A target's answer that has the right shape. */
interface CheckedAnswer {
  output: unknown
  usage: TokenUsage | undefined
  model: string | undefined
  steps: AnswerStep[] | undefined
  turns: AnswerTurn[] | undefined
}

const NO_STEPS: readonly AnswerStep[] = Object.freeze([])
const CACHED = Object.freeze({ cached: true })
const ASKED = Object.freeze({ cached: false })

export const singleAnswerStep: SampleStep = async (context, sample) => {
  const { suite, evalCase, stop } = context
  if (stop.aborted) throw new CaseError('target', `${sampleLabel(sample, suite.rules.samples)}: not asked, the run was stopped`)
  const hit = context.cached?.[sample]
  if (hit !== undefined) return settleAnswer(context, sample, hit, CACHED)
  let raw: TargetAnswer
  let latencyMs: number | undefined
  const tools = context.tools?.(evalCase.id, sample, stop.signal)
  const asked: TargetContext = {
    caseId: evalCase.id,
    sample,
    get signal() {
      return stop.signal
    },
  }
  if (tools !== undefined) asked.tools = tools
  try {
    context.calls.count++
    const started = performance.now()
    raw = await suite.ask(evalCase.input, asked)
    if (suite.rules.tolerances.latency_per_case !== undefined) latencyMs = Math.round(performance.now() - started)
  } catch (error) {
    throw new CaseError('target', `${sampleLabel(sample, suite.rules.samples)}: ${tools?.refusal() ?? messageOf(error)}`)
  }
  // A call strict tool replay refused errors the case, even when the target caught it and answered.
  const refusal = tools?.refusal()
  if (refusal !== undefined) throw new CaseError('target', `${sampleLabel(sample, suite.rules.samples)}: ${refusal}`)
  return settleAnswer(context, sample, raw, latencyMs === undefined ? ASKED : { cached: false, latencyMs })
}

/**
 * An answer, from the cache or just given, made into the sample's result: checked against the answer
 * shape, its model pinned, its extra model calls counted, handed to the cache (when it was just
 * given and `keep` allows), and scored. A conversation's step settles the answer it assembled here too.
 */
export async function settleAnswer(
  context: CaseContext,
  sample: number,
  raw: unknown,
  how: { cached: boolean; latencyMs?: number | undefined; keep?: boolean; countedCalls?: boolean },
): Promise<SampleResult> {
  const { suite, evalCase, identity } = context
  const answer = checkAnswer(raw, suite.recordResponses)
  if (typeof answer === 'string') throw new CaseError('target', `${sampleLabel(sample, suite.rules.samples)}: malformed answer: ${answer}`)
  try {
    identity.seeTarget(answer.model)
  } catch (error) {
    throw new CaseError('target', `${sampleLabel(sample, suite.rules.samples)}: ${messageOf(error)}`)
  }
  const steps = answer.turns === undefined ? (answer.steps ?? NO_STEPS) : stepsOfTurns(answer.turns)
  // An agent's answer counts every model call it made (the budget sees them; SPEC §16).
  if (!how.cached && how.countedCalls !== true) context.calls.count += Math.max(0, modelCallsOf(steps) - 1)
  if (!how.cached && how.keep !== false && context.onAnswer !== undefined) await context.onAnswer(evalCase.id, sample, cachedAnswerOf(answer))
  const result = await scoreAnswer(context, answer.output, steps, answer.turns, sample)
  if (answer.usage !== undefined) result.usage = answer.usage
  if (how.latencyMs !== undefined) result.latency_ms = how.latencyMs
  if (how.cached) result.cached = true
  if (suite.recordResponses && answer.output !== undefined) result.output = jsonValue(answer.output)
  if (answer.steps !== undefined) result.steps = stepsForDocument(answer.steps, suite.recordResponses)
  if (answer.turns !== undefined) result.turns = turnsForDocument(answer.turns, suite.recordResponses)
  return result
}

/** The answer, or why it is malformed. */
export function checkAnswer(raw: unknown, record: boolean): CheckedAnswer | string {
  if (raw === null || typeof raw !== 'object' || !('output' in raw)) return 'the target must answer { output, model?, usage?, steps?, turns? }'
  const { output, model, usage } = raw as TargetAnswer
  if (model !== undefined && (typeof model !== 'string' || model === '')) return `model must be a non-empty string, got ${preview(model)}`
  let checkedUsage = usage === undefined ? undefined : usageFrom(usage)
  if (typeof checkedUsage === 'string') return `usage must be ${checkedUsage}, got ${preview(usage)}`
  if (record) {
    const offence = findNotPlain(output, ['output'])
    if (offence !== undefined) return `the answer cannot be recorded (recordResponses is true): ${describeNotPlain(offence)}`
  }
  const { steps: rawSteps, turns: rawTurns } = raw as TargetAnswer
  if (rawTurns !== undefined) {
    if (rawSteps !== undefined) return "a conversation's steps belong to its turns: give each assistant turn its steps, not the answer"
    const turns = checkTurns(rawTurns, record)
    if (typeof turns === 'string') return turns
    const summed = turnsUsage(turns)
    if (summed !== undefined) {
      if (checkedUsage !== undefined && !sameUsage(checkedUsage, summed))
        return `usage ${preview(checkedUsage)} is not the sum of its turns' usage ${preview(summed)}; give one or make them agree`
      checkedUsage = summed
    }
    return { output, model, usage: checkedUsage, steps: undefined, turns }
  }
  if (rawSteps === undefined) return { output, model, usage: checkedUsage, steps: undefined, turns: undefined }
  const steps = checkSteps(rawSteps, record)
  if (typeof steps === 'string') return steps
  const summed = stepsUsage(steps)
  if (summed !== undefined) {
    if (checkedUsage !== undefined && !sameUsage(checkedUsage, summed)) {
      return `usage ${preview(checkedUsage)} is not the sum of its model calls' usage ${preview(summed)}; give one or make them agree`
    }
    checkedUsage = summed
  }
  return { output, model, usage: checkedUsage, steps, turns: undefined }
}

const sameUsage = (a: TokenUsage, b: TokenUsage): boolean => a.input_tokens === b.input_tokens && a.output_tokens === b.output_tokens

async function scoreAnswer(context: CaseContext, output: unknown, steps: readonly AnswerStep[], turns: readonly AnswerTurn[] | undefined, index: number): Promise<SampleResult> {
  const { suite, evalCase, stop, identity } = context
  const args: ScorerArgs = {
    input: evalCase.input,
    output,
    expected: evalCase.expected,
    caseId: evalCase.id,
    context: evalCase.context,
    get signal() {
      return stop.signal
    },
    recorded: suite.recordResponses,
    steps,
  }
  if (turns !== undefined) args.turns = turns
  const settled = await settleScorers(suite.scorers, args)
  // map, not push: the scores are held until the run ends, in an array of exactly their number.
  const scores = settled.map((outcome, i): ScorerScore => {
    const scorer = suite.scorers[i]!
    if (outcome.status === 'rejected') throw new CaseError('scorer', `${scorerLabel(index, suite.rules.samples, scorer)}: ${messageOf(outcome.reason)}`)
    const normal = normalizeScore(outcome.value, scorer)
    if (typeof normal === 'string') throw new CaseError('scorer', `${scorerLabel(index, suite.rules.samples, scorer)}: ${normal}`)
    try {
      identity.seeJudge(scorer.name, normal.model)
    } catch (error) {
      throw new CaseError('scorer', `${scorerLabel(index, suite.rules.samples, scorer)}: ${messageOf(error)}`)
    }
    const score: ScorerScore = { name: scorer.name, pass: normal.pass, score: normal.score, reason: normal.reason }
    if (normal.usage !== undefined) score.usage = normal.usage
    if (isBorderline(normal.score, scorer.passAt, suite.borderline)) score.borderline = true
    return score
  })
  const { pass, score } = sampleOutcome(scores)
  // A literal of the three fields, not a spread: the held object keeps its compact shape.
  return { pass, score, scorers: scores }
}

/**
 * Every scorer called on the answer at once, each one's return or throw settled. A scorer that
 * returns its score rather than a promise is settled on the spot: most built-in scorers do, and
 * each would otherwise cost a promise, a microtask and a slot of Promise.allSettled per sample.
 */
function settleScorers(scorers: readonly ResolvedScorer[], args: ScorerArgs): PromiseSettledResult<ScorerReturn>[] | Promise<PromiseSettledResult<ScorerReturn>[]> {
  const outcomes = new Array<PromiseSettledResult<ScorerReturn> | PromiseLike<ScorerReturn>>(scorers.length)
  let waiting = false
  for (let i = 0; i < scorers.length; i++) {
    try {
      const value = scorers[i]!.score(args)
      if (isThenable(value)) {
        outcomes[i] = value as PromiseLike<ScorerReturn>
        waiting = true
      } else outcomes[i] = { status: 'fulfilled', value }
    } catch (reason) {
      outcomes[i] = { status: 'rejected', reason }
    }
  }
  if (!waiting) return outcomes as PromiseSettledResult<ScorerReturn>[]
  return Promise.allSettled(outcomes.map((o) => (isThenable(o) ? Promise.resolve(o) : o.status === 'fulfilled' ? Promise.resolve(o.value) : Promise.reject(o.reason as Error))))
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function'
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
  const checkedUsage = usage === undefined ? undefined : usageFrom(usage)
  if (typeof checkedUsage === 'string') return `returned usage = ${preview(usage)}, not ${checkedUsage}`
  const said = typeof reason === 'string' ? reason : null
  const normal: NormalScore = { pass, score: checked, reason: said ?? (pass ? null : `did not pass (score ${checked})`), model }
  if (checkedUsage !== undefined) normal.usage = checkedUsage
  return normal
}

/** The score within 0..1; float noise at the bounds is clamped, anything further out is refused. */
function unitScore(value: number): number | undefined {
  if (!Number.isFinite(value) || value < -1e-9 || value > 1 + 1e-9) return undefined
  return Math.min(1, Math.max(0, value))
}

/** The value as the document will hold it, so a result read back from the journal equals this one. */
export function jsonValue(value: unknown): unknown {
  // A string, a boolean, null and a finite number other than -0 come back from JSON as they went in.
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value
  if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return value
  const text = JSON.stringify(value)
  return text === undefined ? undefined : (JSON.parse(text) as unknown)
}

/** Samples are numbered from 0 in every message, as ctx.sample numbers them. */
export function sampleLabel(sample: number, samples: number): string {
  return `sample ${sample} of ${samples}`
}

function scorerLabel(sample: number, samples: number, scorer: ResolvedScorer): string {
  return `${sampleLabel(sample, samples)}, scorer ${JSON.stringify(scorer.name)}`
}

export function mean(values: readonly number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return values.length === 0 ? 0 : sum / values.length
}

export function messageOf(error: unknown): string {
  if (error instanceof ObservedIdentityChangedError) return describeIdentityChange(error)
  if (error instanceof Error) return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message
  return preview(error)
}
