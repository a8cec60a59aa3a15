// A replay (docs/adr/0013): the recorded answers of a run, scored again by the scorers of suite T
// without asking any target. The driver runs as for a fresh run, with a target that can only hand
// back what the source run recorded.
import type { CaseResult, RunDocument } from '../../document/schema.js'
import { execute } from '../../driver/index.js'
import type { OnCase } from '../../document/case-progress.js'
import { NoRecordedAnswersError, ReplayMismatchError } from './errors.js'
import type { Store } from '../../store/contract.js'
import type { EvalCase, ResolvedSuite, TargetAnswer, TargetContext } from '../../suite/types.js'
import { buildRunDocument, type Measured } from '../launch/measure-run.js'
import { prepareRun, type Prepared, type RunContext } from '../launch/prepare-run.js'
import { assertNotRemoved } from './removed-runs.js'
import { assertNotRetired } from './retired-suites.js'
import { resolveRunKey } from '../launch/run-key.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'

export interface RejudgeRequest {
  /** The run whose answers are judged again. */
  source: { suite: string; key: string }
  /** The replay's own created_at, chosen by whoever launched it (now). */
  createdAt: string
}

/** The variable `digline rejudge` hands the workers (plugin/rejudge-request.ts reads it). */
export { REJUDGE_ENV } from '../launch/launch-directive.js'

export interface PreparedReplay {
  prepared: Prepared
  source: { suite: string; key: string }
  /** Cases of the suite the source recorded; the replay judges these. */
  shared: string[]
  /** Cases of the suite the source has no result for: left out of the replay. */
  leftOut: string[]
  /** Results of the source whose case the suite does not declare: not judged. */
  ignored: string[]
}

export async function prepareReplay(suite: ResolvedSuite, ctx: RunContext, store: Store, request: RejudgeRequest): Promise<PreparedReplay> {
  const { source } = request
  await assertNotRetired(store, ctx.tenant, suite.name, `re-judge run ${source.key} of suite ${source.suite} into suite ${suite.name}`)
  await assertNotRemoved(store, ctx.tenant, source.suite, source.key, 're-judge')
  const doc = await store.readRun(ctx.tenant, source.suite, source.key)
  const where = `run ${source.key} of suite ${source.suite}`
  assertRecordsAnswers(doc, source)
  if (doc.rules.samples !== suite.rules.samples || doc.rules.min_samples !== suite.rules.min_samples) {
    throw new ReplayMismatchError(
      `refused to re-judge ${where} into suite ${suite.name}: ${suite.name} asks for ${samplesText(suite.rules)} sample(s) per case, and the run recorded ${samplesText(doc.rules)}`,
      `re-judge into a suite with samples: ${samplesSetting(doc.rules)} (\`--into T\`), or run suite ${suite.name} again with \`vitest run\``,
      ['samples'],
    )
  }
  const recorded = new Map(doc.results.map((r) => [r.case_id, r]))
  const declared = new Set(suite.cases.map((c) => c.id))
  const shared = suite.cases.filter((c) => recorded.has(c.id)).map((c) => c.id)
  if (shared.length === 0) {
    throw new ReplayMismatchError(
      `refused to re-judge ${where} into suite ${suite.name}: ${suite.name} declares none of the run's ${doc.results.length} case(s)`,
      `re-judge into the suite whose cases the run holds (\`--into T\`)`,
      ['cases'],
    )
  }
  const leftOut = suite.cases.filter((c) => !recorded.has(c.id)).map((c) => c.id)
  const replaySuite: ResolvedSuite = {
    ...suite,
    targetConfig: doc.target_config,
    cases: suite.cases.map((c) => withRecordedInput(c, recorded.get(c.id))),
    ask: recordedAnswers(doc, recorded, where),
  }
  const only = leftOut.length === 0 ? undefined : new Set(shared)
  const prepared = await prepareRun(replaySuite, { ...ctx, env: { ...(ctx.env ?? process.env), DIGLINE_CREATED_AT: request.createdAt } }, only)
  return { prepared, source, shared, leftOut, ignored: doc.results.filter((r) => !declared.has(r.case_id)).map((r) => r.case_id) }
}

const samplesText = (rules: { samples: number; min_samples?: number }): string =>
  rules.min_samples === undefined ? `${rules.samples}` : `${rules.min_samples} to ${rules.samples} (adaptive)`
const samplesSetting = (rules: { samples: number; min_samples?: number }): string =>
  rules.min_samples === undefined ? `${rules.samples}` : `{ min: ${rules.min_samples}, max: ${rules.samples} }`

/** A run without recorded answers has nothing to judge again. */
export function assertRecordsAnswers(doc: RunDocument, source: { suite: string; key: string }): void {
  if (doc.record_responses) return
  throw new NoRecordedAnswersError(
    `refused to re-judge run ${source.key} of suite ${source.suite}: it recorded no answers (record_responses is false), so there is nothing to score again`,
    `set recordResponses: true in suite ${source.suite}, run it with \`vitest run\`, then \`digline rejudge --suite ${source.suite} --run NEW_KEY\``,
    ['record_responses'],
  )
}

/** The answer was given to the recorded input; the expected value is the suite's own, as it is now. */
function withRecordedInput(evalCase: EvalCase, result: CaseResult | undefined): EvalCase {
  return result !== undefined && 'input' in result && result.input !== undefined ? { ...evalCase, input: result.input } : evalCase
}

function recordedAnswers(doc: RunDocument, recorded: ReadonlyMap<string, CaseResult>, where: string) {
  const model = doc.observed.target_model ?? undefined
  return async (_input: unknown, ctx: TargetContext): Promise<TargetAnswer> => {
    const result = recorded.get(ctx.caseId)
    const sample = result?.samples[ctx.sample]
    if (result === undefined || sample === undefined) {
      const why =
        result?.error != null
          ? `the case errored there (${result.error.cause}: ${result.error.message})`
          : result?.sampling_stopped !== undefined
            ? `the run stopped sampling the case after ${result.samples.length} (adaptive samples), and the new scores leave its verdict unsettled there`
            : 'no answer was recorded'
      throw new Error(`no recorded answer for sample ${ctx.sample} (counting from 0) of case ${ctx.caseId} in ${where}: ${why}`)
    }
    // An agent's steps and a conversation's turns are part of the answer the scorers judge.
    const answer: TargetAnswer = { output: sample.output }
    if (model !== undefined) answer.model = model
    if (sample.steps !== undefined) answer.steps = sample.steps
    if (sample.turns !== undefined) answer.turns = sample.turns
    return answer
  }
}

/** Judges the recorded answers, files the replay under the suite, and says how it went. */
export async function replayRun(replay: PreparedReplay, options: { store: Store; onCase?: readonly OnCase[]; signal?: AbortSignal }): Promise<Measured> {
  const { prepared } = replay
  const hooks = options.onCase ?? []
  const execution = await execute({
    suite: prepared.suite,
    only: prepared.only,
    signal: options.signal,
    onCase: async (progress) => {
      for (const hook of hooks) await hook(progress)
    },
  })
  const document: RunDocument = { ...buildRunDocument(prepared, execution), rejudged_from: replay.source.key, rejudged_from_suite: replay.source.suite }
  const stored = await options.store.writeRun(document)
  return { document, stored }
}

/** The line printed before judging: what is replayed, and that the target is asked nothing. */
export function announceReplay(suite: string, replay: PreparedReplay): string {
  const { plan } = replay.prepared
  let line = `digline ${suite}: re-judging run ${replay.source.key} of suite ${replay.source.suite}: ${plan.cases} case(s) × ${plan.samples} sample(s) recorded = 0 calls to the target`
  if (replay.leftOut.length > 0) line += `; ${replay.leftOut.length} case(s) of ${suite} have no recorded answer and are left out (${preview(replay.leftOut)})`
  if (replay.ignored.length > 0) line += `; ${replay.ignored.length} recorded case(s) that ${suite} does not declare are not judged (${preview(replay.ignored)})`
  return line
}

function preview(ids: readonly string[]): string {
  return ids.length > 5 ? `${ids.slice(0, 5).join(', ')}, …` : ids.join(', ')
}

/**
 * The run a rejudge reads, checked before anything is launched: its key (`latest` resolved), not
 * removed, readable, and with recorded answers.
 */
export async function rejudgeSource(store: Store, tenant: string, suite: string, run: string): Promise<string> {
  const key = await resolveRunKey(store, tenant, suite, run)
  assertSafeSegment('key', key)
  await assertNotRemoved(store, tenant, suite, key, 're-judge')
  assertRecordsAnswers(await store.readRun(tenant, suite, key), { suite, key })
  return key
}

/** The replay a rejudge launch filed under suite INTO, found by its created_at and source; undefined when none was. */
export async function filedReplay(store: Store, tenant: string, into: string, createdAt: string, source: { suite: string; key: string }): Promise<string | undefined> {
  const { runs } = await store.listRuns(tenant, into)
  return runs.find((r) => r.header?.created_at === createdAt && r.header.rejudged_from === source.key && r.header.rejudged_from_suite === source.suite)?.key
}
