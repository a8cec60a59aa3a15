// What the report and the viewer show (SPEC §12), gathered from the store as plain data: per suite,
// the chosen run with its interval, the comparison with the baseline, one row per case, the recent
// runs and the promotions; and the runs still being written, from their journals. No HTML here.
// Answers, inputs, expected values and reasons appear only when the run recorded responses.
import type { RegisterEntry } from '../../document/baseline.js'
import type { Aggregates, CaseResult, Interval, RunDocument, RunHeader } from '../../document/schema.js'
import type { ThresholdMiss } from '../../driver/thresholds.js'
import { stepsForDocument } from '../../driver/answer-steps.js'
import { turnsForDocument } from '../../driver/answer-turns.js'
import type { AnswerStep } from '../../suite/steps.js'
import type { AnswerTurn } from '../../suite/turns.js'
import { RunNotFoundError } from '../../store/errors.js'
import type { Store } from '../../store/contract.js'
import type { Pending } from '../../store/journal.js'
import type { JournalReadCount, PendingFollower } from '../../store/pending-follower.js'
import { DIGLINE_VERSION } from '../../version.js'
import type { BaselineComparison } from '../judge/compare.js'
import { judgeRun } from '../judge/judge-run.js'
import { resolveRunKey } from '../launch/run-key.js'
import type { SuiteStatus } from '../judge/suite-outcome.js'
import { describeAgreement, describeUncalibrated, type JudgeAgreement } from '../judge/judge-agreement.js'
import { compareVariants, type VariantComparison, type VariantRun } from '../judge/variant-comparison.js'
import { describeSamplesPerCase } from '../judge/samples-wording.js'

/** How many recent runs the history chart shows. */
export const HISTORY_RUNS = 30

export type Verdict = CaseResult['verdict']

export interface TokenCount {
  input_tokens: number
  output_tokens: number
}

export interface CaseRow {
  id: string
  verdict: Verdict
  /** The baseline's verdict of the same case; null when the baseline lacks it or there is no baseline. */
  baseline: Verdict | null
  flip: 'pass_to_fail' | 'fail_to_pass' | null
  score: number | null
  /** One entry per sample: did it pass. */
  samples: boolean[]
  error: { cause: string; message: string } | null
  usage: TokenCount | null
  judge_usage: TokenCount | null
  /** The case's reason, as the document keeps it and the terminal printed it (recorded or not). */
  reason: string | null
  /** Each sample's scorers, with their own score, pass and reason. */
  scores: SampleScores[]
  /**
   * The steps of each sample that has any (an agent's model and tool calls, in order), for the
   * timeline; a tool call's arguments, result and error only when the run recorded responses.
   */
  trajectories?: Trajectory[]
  /**
   * The turns of each sample of a conversation, in the order they were said, each with its usage,
   * duration and (the target's) steps; what was said, and a tool call's arguments, result and error,
   * only when the run recorded responses.
   */
  conversations?: Conversation[]
  /** Only when the run recorded responses. */
  input?: unknown
  expected?: unknown
  answers?: unknown[]
}

export interface Trajectory {
  sample: number
  steps: AnswerStep[]
}

export interface Conversation {
  sample: number
  turns: AnswerTurn[]
}

export interface SampleScores {
  sample: number
  /** `borderline` only when the score lies within the suite's band of pass_at (ADR 0262). */
  scorers: { name: string; pass: boolean; score: number; reason: string | null; borderline?: true }[]
}

export interface RunIdentity {
  key: string
  created_at: string
  config_hash: string
  environment: string
  git_commit: string | null
  digline_version: string
  target_config: Record<string, unknown>
  observed: RunHeader['observed']
  judge_config: RunHeader['judge_config']
  record_responses: boolean
  rejudged_from: string | null
}

export interface HistoryPoint {
  key: string
  created_at: string
  pass_rate: number | null
  ci95: Interval | null
  cases: number
  replay: boolean
  /** The run the chosen one is compared with: the baseline, or with `against` the run compared against. */
  baseline: boolean
}

export interface SuiteReport {
  suite: string
  retired_at: string | null
  run: RunIdentity
  status: SuiteStatus
  aggregates: Aggregates
  misses: ThresholdMiss[]
  rules: RunDocument['rules']
  /** How many samples each case took, in words (adaptive samples: the bounds and the average taken). */
  samples: string
  comparison: BaselineComparison | null
  /** Each judge against the people's labels (ADR 0351), with the sentence the terminal prints; empty when the run has no judge. */
  agreement: (JudgeAgreement & { words: string })[]
  /** With status `uncalibrated`: why the run was not judged, in words; null otherwise. */
  not_judged: string | null
  /** With `against`: the run compared against, which takes the baseline's place (ADR 0230); null otherwise. */
  against: RunIdentity | null
  cases: CaseRow[]
  history: HistoryPoint[]
  register: RegisterEntry[]
  /** For a variant's run (ADR 0300): the suite it is a variant of, and its name; absent otherwise. */
  variant?: { suite: string; name: string }
}

export interface LiveRun {
  suite: string
  key: string
  started_at: string | null
  /** The cases the run declared; null when the journal does not say. */
  declared: number | null
  samples: number | null
  /** A writer's lease holds: the run is being written now. */
  writing: boolean
  record_responses: boolean
  cases: CaseRow[]
  problem: string | null
}

export interface ReportData {
  tenant: string
  generated_at: string
  digline_version: string
  suites: SuiteReport[]
  /** The variant matrix of each suite whose variants (two or more) are among the suites shown, over the runs shown. */
  variants?: VariantComparison[]
  /** Suites that have no readable run, and why. */
  skipped: { suite: string; reason: string }[]
  live: LiveRun[]
}

export interface ReportRequest {
  tenant: string
  /** The suites to show; empty: every suite of the tenant. */
  suites: readonly string[]
  /** A key or `latest`; a key other than latest needs exactly one suite. */
  run: string
  /** Another run of the one suite (a key or `latest`) to compare the run with, in the baseline's place. */
  against?: string
  /** Also read the pending journals (the viewer follows runs in progress: with a follower, only what they gained). */
  withLive?: boolean | LiveRunFollower
  /** Skip a named suite that has no run yet instead of refusing it (the viewer waits for its first run). */
  skipEmpty?: boolean
}

function sumUsage(items: readonly (TokenCount | undefined)[]): TokenCount | null {
  const present = items.filter((u): u is TokenCount => u !== undefined)
  if (present.length === 0) return null
  return { input_tokens: present.reduce((n, u) => n + u.input_tokens, 0), output_tokens: present.reduce((n, u) => n + u.output_tokens, 0) }
}

/** One case as the page shows it: its reason and scores always, the answers, input and expected value only when recorded. */
export function caseRow(result: CaseResult, recorded: boolean, baseline: Verdict | null): CaseRow {
  const flip = baseline === 'pass' && result.verdict === 'fail' ? 'pass_to_fail' : baseline === 'fail' && result.verdict === 'pass' ? 'fail_to_pass' : null
  const row: CaseRow = {
    id: result.case_id,
    verdict: result.verdict,
    baseline,
    flip,
    score: result.score,
    samples: result.samples.map((s) => s.pass),
    error: result.error,
    usage: sumUsage(result.samples.map((s) => s.usage)),
    judge_usage: sumUsage(result.samples.flatMap((s) => s.scorers.map((sc) => sc.usage))),
    reason: result.reason,
    scores: result.samples.map((s, sample) => ({
      sample,
      scorers: s.scorers.map(({ name, pass, score, reason, borderline }) => ({ name, pass, score, reason, ...(borderline === true ? { borderline } : {}) })),
    })),
  }
  const trajectories: Trajectory[] = []
  result.samples.forEach((s, sample) => {
    if (s.steps !== undefined && s.steps.length > 0) trajectories.push({ sample, steps: stepsForDocument(s.steps, recorded) })
  })
  if (trajectories.length > 0) row.trajectories = trajectories
  const conversations: Conversation[] = []
  result.samples.forEach((s, sample) => {
    if (s.turns !== undefined && s.turns.length > 0) conversations.push({ sample, turns: turnsForDocument(s.turns, recorded) })
  })
  if (conversations.length > 0) row.conversations = conversations
  if (recorded) {
    row.input = result.input
    row.expected = result.expected
    row.answers = result.samples.map((s) => s.output)
  }
  return row
}

function identityOf(key: string, doc: RunDocument): RunIdentity {
  return {
    key,
    created_at: doc.created_at,
    config_hash: doc.config_hash,
    environment: doc.environment,
    git_commit: doc.git_commit ?? null,
    digline_version: doc.digline_version,
    target_config: doc.target_config,
    observed: doc.observed,
    judge_config: doc.judge_config,
    record_responses: doc.record_responses,
    rejudged_from: doc.rejudged_from ?? null,
  }
}

async function suiteReport(store: Store, tenant: string, suite: string, runArg: string, register: RegisterEntry[], againstArg?: string): Promise<[SuiteReport, RunDocument]> {
  const key = await resolveRunKey(store, tenant, suite, runArg)
  const doc = await store.readRun(tenant, suite, key)
  const againstKey = againstArg === undefined ? undefined : await resolveRunKey(store, tenant, suite, againstArg)
  const against = againstKey === undefined ? undefined : await store.readRun(tenant, suite, againstKey)
  const outcome = await judgeRun(store, doc, { tenant, suite, key, location: `run ${key} of suite ${suite}` }, against)
  const comparison = outcome.comparison ?? null
  const baselineVerdicts = new Map<string, Verdict>()
  if (against !== undefined) for (const r of against.results) baselineVerdicts.set(r.case_id, r.verdict)
  else if (comparison !== null && comparison.status !== 'unreadable') {
    const baseline = await store.readBaseline(tenant, suite)
    for (const r of baseline?.results ?? []) baselineVerdicts.set(r.case_id, r.verdict)
  }
  const listing = await store.listRuns(tenant, suite)
  const baselineKey = comparison !== null && comparison.status !== 'unreadable' ? comparison.baseline.key : null
  const history: HistoryPoint[] = []
  for (const listed of listing.runs.slice(-HISTORY_RUNS)) {
    if (listed.header === undefined) continue
    const a = listed.aggregates
    history.push({
      key: listed.key,
      created_at: listed.header.created_at,
      pass_rate: a?.pass_rate ?? null,
      ci95: a?.pass_rate_ci95 ?? null,
      cases: a?.cases ?? 0,
      replay: listed.header.rejudged_from !== undefined,
      baseline: listed.key === baselineKey,
    })
  }
  const report: SuiteReport = {
    suite,
    retired_at: (await store.retirementOf(tenant, suite))?.retired_at ?? null,
    run: identityOf(key, doc),
    status: outcome.status,
    aggregates: doc.aggregates,
    misses: outcome.misses,
    rules: doc.rules,
    samples: describeSamplesPerCase(doc.aggregates, doc.rules),
    comparison,
    agreement: (outcome.agreement ?? []).map((a) => ({ ...a, words: describeAgreement(a) })),
    not_judged: outcome.status === 'uncalibrated' ? describeUncalibrated(outcome) : null,
    against: against === undefined || againstKey === undefined ? null : identityOf(againstKey, against),
    cases: doc.results.map((r) => caseRow(r, doc.record_responses, baselineVerdicts.get(r.case_id) ?? null)),
    history,
    register: register.filter((e) => e.suite === suite),
    ...(doc.variant === undefined ? {} : { variant: { ...doc.variant } }),
  }
  return [report, doc]
}

/** The suites shown that are variants of one declared suite, grouped, in the order shown; a group of one is no comparison. */
function variantMatrices(shown: readonly [SuiteReport, RunDocument][]): VariantComparison[] {
  const groups = new Map<string, VariantRun[]>()
  for (const [report, doc] of shown) {
    if (doc.variant === undefined) continue
    const group = groups.get(doc.variant.suite) ?? []
    group.push({ variant: doc.variant.name, suite: report.suite, key: report.run.key, document: doc })
    groups.set(doc.variant.suite, group)
  }
  // in the order the variants were declared (ADR 0415); a run from before that was recorded keeps the order shown
  const declared = (run: VariantRun): number => run.document.variant?.position ?? Number.MAX_SAFE_INTEGER
  return [...groups]
    .filter(([, runs]) => runs.length > 1)
    .map(([suite, runs]) =>
      compareVariants(
        suite,
        [...runs].sort((a, b) => declared(a) - declared(b)),
      ),
    )
}

function liveRunOf(pending: Pending, rowOf: (result: CaseResult, recorded: boolean) => CaseRow = (r, recorded) => caseRow(r, recorded, null)): LiveRun {
  const recorded = pending.header?.record_responses ?? false
  return {
    suite: pending.suite,
    key: pending.key,
    started_at: pending.header?.started_at ?? null,
    declared: pending.declared === undefined ? null : Object.keys(pending.declared.digests).length,
    samples: pending.declared?.samples ?? null,
    writing: pending.leases.some((l) => l.live),
    record_responses: recorded,
    cases: [...pending.done.values()].map((r) => rowOf(r, recorded)),
    problem: pending.refusal === undefined ? null : `${pending.refusal.name}: ${pending.refusal.message.split('\n')[0]}`,
  }
}

/** The runs of the suites still being written or left unfinished, from their journals. */
export async function liveRuns(store: Store, tenant: string, suites: readonly string[]): Promise<LiveRun[]> {
  const out: LiveRun[] = []
  for (const suite of suites) for (const pending of await store.pending(tenant, suite)) if (!pending.finished) out.push(liveRunOf(pending))
  return out
}

/**
 * The live runs of a tenant's suites across the viewer's polls: each poll reads only what the
 * journals gained since the last (Store.followPending, docs/adr/0396), and a case's row is made once
 * per record. Polls are taken one at a time, however many requests ask at once.
 */
export class LiveRunFollower {
  private readonly followers = new Map<string, PendingFollower>()
  private readonly rows = new WeakMap<CaseResult, CaseRow>()
  private turn: Promise<unknown> = Promise.resolve()
  /** What the last poll read of the journals, summed over the suites. */
  lastRead: JournalReadCount = { bytes: 0, rows: 0 }

  constructor(
    private readonly store: Store,
    private readonly tenant: string,
  ) {}

  runs(suites: readonly string[]): Promise<LiveRun[]> {
    const next = this.turn.then(() => this.poll(suites))
    this.turn = next.catch(() => undefined)
    return next
  }

  private async poll(suites: readonly string[]): Promise<LiveRun[]> {
    const out: LiveRun[] = []
    const read: JournalReadCount = { bytes: 0, rows: 0 }
    const rowOf = (result: CaseResult, recorded: boolean): CaseRow => {
      let row = this.rows.get(result)
      if (row === undefined) this.rows.set(result, (row = caseRow(result, recorded, null)))
      return row
    }
    for (const suite of suites) {
      let follower = this.followers.get(suite)
      if (follower === undefined && this.store.followPending !== undefined) this.followers.set(suite, (follower = this.store.followPending(this.tenant, suite)))
      const journals = follower === undefined ? await this.store.pending(this.tenant, suite) : await follower.poll()
      if (follower !== undefined) {
        read.bytes += follower.lastRead.bytes
        read.rows += follower.lastRead.rows
      }
      for (const pending of journals) if (!pending.finished) out.push(liveRunOf(pending, rowOf))
    }
    this.lastRead = read
    return out
  }
}

/** Everything the report shows, read from the store; nothing is written. */
export async function reportData(store: Store, request: ReportRequest): Promise<ReportData> {
  const { tenant } = request
  const named = request.suites.length > 0
  const suites = named ? [...request.suites] : await store.listSuites(tenant)
  if (request.run !== 'latest' && suites.length !== 1)
    throw new RunNotFoundError(`--run ${request.run} names one run, but ${suites.length} suites were chosen`, 'Name its suite with `--suite S`, or pass `--run latest`.', ['--run'])
  if (request.against !== undefined && suites.length !== 1)
    throw new RunNotFoundError(
      `--against ${request.against} names a run of one suite, but ${suites.length} suites were chosen`,
      `Name its suite: \`digline report --suite S --run ${request.run} --against ${request.against}\`.`,
      ['--against'],
    )
  const register = await store.readRegister(tenant)
  const shown: [SuiteReport, RunDocument][] = []
  const skipped: ReportData['skipped'] = []
  for (const suite of suites) {
    // a suite named by the user must have the run; one found by listing may hold only journals
    if ((!named || request.skipEmpty === true) && (await store.latestKey(tenant, suite)) === undefined) {
      skipped.push({ suite, reason: 'no run has been written yet' })
      continue
    }
    shown.push(await suiteReport(store, tenant, suite, request.run, register, request.against))
  }
  return {
    tenant,
    generated_at: new Date().toISOString(),
    digline_version: DIGLINE_VERSION,
    suites: shown.map(([report]) => report),
    variants: variantMatrices(shown),
    skipped,
    live: request.withLive instanceof LiveRunFollower ? await request.withLive.runs(suites) : request.withLive === true ? await liveRuns(store, tenant, suites) : [],
  }
}
