// Deciding what a launch of one suite is, before the first call: its created_at and key, its
// identity, and the bill it announces.
import type { ResolvedSuite } from '../../suite/types.js'
import { casesDigests, configHash as configHashOf } from '../../suite/hashing.js'
import { keyFor, launchCreatedAt } from '../../suite/keys.js'
import { gitCommit } from '../../suite/git-commit.js'
import { digestArtifacts } from './artifacts.js'
import type { Pending } from '../../store/journal.js'
import { assertResumable, journalHeaderFor, selectDone } from './resume.js'
import { describeEstimate, type UsageEstimate } from './usage-estimate.js'
import { casesOfShard, nextLegOf, readShardLabel, shardLabel, type Shard } from './shard.js'
import type { CallPlan, Prepared } from './prepared.js'
import { InvalidShardError } from './errors.js'
import { describeSliceTags } from '../../suite/slice.js'
import { conversationCallsOf, conversationOf } from '../../suite/conversation.js'

export type { CallPlan, Prepared } from './prepared.js'

export interface RunContext {
  tenant: string
  environment: string
  /** Absolute path of the store directory. */
  storeRoot: string
  /** The Vitest root: artifacts and git are read from here. */
  projectRoot: string
  env?: NodeJS.ProcessEnv
  /** The launch is `vitest --watch` (the response cache is on by default there). */
  watch?: boolean
  /** The suite file (absolute), when known: the response cache keys answers by the code it imports. */
  suiteFile?: string
}

export interface ResumeRequest {
  pending: Pending
  /** Keep errored cases as they are instead of calling them again. */
  keepErrors: boolean
}

export async function prepareRun(suite: ResolvedSuite, ctx: RunContext, only?: ReadonlySet<string>, resume?: ResumeRequest, shard?: Shard): Promise<Prepared> {
  if (shard !== undefined) return prepareShard(await prepareRun(suite, ctx, only, resume), shard, resume)
  const createdAt = resume?.pending.header?.created_at ?? launchCreatedAt(ctx.env ?? process.env)
  // git runs in child processes while the cases are hashed and the artifacts read.
  const commit = gitCommit(ctx.projectRoot)
  const configHash = configHashOf(suite.rules, suite.scorers)
  const declared =
    resume?.pending.header === undefined || resume.pending.declared === undefined ? undefined : { all: resume.pending.header.cases_digest, each: resume.pending.declared.digests }
  const { all: casesDigest, each: caseDigests } = casesDigests(suite.cases, declared)
  const artifacts = await digestArtifacts(suite.artifacts, ctx.projectRoot, suite.name)
  const cases = only === undefined ? suite.cases.length : suite.cases.filter((c) => only.has(c.id)).length
  const adaptive = suite.rules.min_samples === undefined ? {} : { minSamples: suite.rules.min_samples }
  const selected = (id: string) => only === undefined || only.has(id)
  const bill = callsPerSample(suite, cases, selected)
  const prepared: Prepared = {
    suite,
    tenant: ctx.tenant,
    environment: ctx.environment,
    createdAt,
    configHash,
    casesDigest,
    caseDigests,
    key: keyFor(createdAt, configHash),
    gitCommit: await commit,
    artifacts,
    plan: {
      cases,
      ...(only === undefined ? {} : { filteredFrom: suite.cases.length }),
      toCall: cases,
      samples: suite.rules.samples,
      ...adaptive,
      calls: bill.calls * suite.rules.samples,
      ...bill.conversation,
      cached: 0,
      reused: 0,
      retried: 0,
      resumed: false,
      ...(suite.slice === undefined ? {} : { slice: suite.slice }),
    },
    only,
    done: new Map(),
    observedSeed: undefined,
    leg: 1,
  }
  if (resume === undefined) return prepared
  assertResumable(resume.pending, journalHeaderFor(prepared, createdAt))
  const { done, retried } = selectDone(resume.pending, new Set(suite.cases.map((c) => c.id)), resume.keepErrors)
  const toCall = cases - done.size
  const left = callsPerSample(suite, toCall, (id) => selected(id) && !done.has(id))
  return {
    ...prepared,
    done,
    observedSeed: resume.pending.observed,
    leg: Math.max(0, ...resume.pending.legs) + 1,
    plan: {
      cases,
      toCall,
      samples: suite.rules.samples,
      ...adaptive,
      calls: left.calls * suite.rules.samples,
      ...left.conversation,
      cached: 0,
      reused: done.size,
      retried,
      resumed: true,
      ...(suite.slice === undefined ? {} : { slice: suite.slice }),
    },
  }
}

/** The plan once the response cache has said how many answers it gives. */
export function withCachedAnswers(plan: CallPlan, cached: number): CallPlan {
  return { ...plan, cached, calls: plan.toCall * plan.samples - cached }
}

/** A whole run's preparation narrowed to one shard: its share of the cases, its own leg, its bill. */
function prepareShard(whole: Prepared, shard: Shard, resume: ResumeRequest | undefined): Prepared {
  const ids = whole.suite.cases.map((c) => c.id)
  const mine = casesOfShard(ids, shard)
  const started = resume === undefined ? undefined : readShardLabel(resume.pending.header?.shard)
  if (resume !== undefined && started?.count !== shard.count) {
    throw new InvalidShardError(
      `refused to resume run ${resume.pending.key} of suite ${whole.suite.name} as shard ${shardLabel(shard)}: ${started === undefined ? 'the run was not started sharded' : `the run was started in ${started.count} shards`}; nothing was called`,
      started === undefined
        ? `digline run --resume ${resume.pending.key} (without --shard)`
        : `digline run --resume ${resume.pending.key} --shard ${shard.index <= started.count ? shard.index : 1}/${started.count}`,
      ['--shard'],
    )
  }
  const done = new Map([...whole.done].filter(([id]) => mine.has(id)))
  const retried = resume === undefined ? 0 : [...resume.pending.done.values()].filter((r) => mine.has(r.case_id) && r.verdict === 'error' && !resume.keepErrors).length
  const toCall = mine.size - done.size
  const { calls, conversation } = callsPerSample(whole.suite, toCall, (id) => mine.has(id) && !done.has(id))
  return {
    ...whole,
    done,
    shard,
    mine,
    leg: resume === undefined ? shard.index : nextLegOf(shard, resume.pending.legs),
    plan: { ...whole.plan, ...conversation, cases: ids.length, toCall, calls: calls * whole.plan.samples, reused: done.size, retried, shard: shardLabel(shard), share: mine.size },
  }
}

/**
 * The calls one sample of each kept case may make: one answer, or for a conversation its target
 * turns and its simulated user's messages (ADR 0382; the budget reserves the same when a case starts).
 * A simulated user may end a conversation early, so its cases' calls are a ceiling.
 */
function callsPerSample(suite: ResolvedSuite, toCall: number, keep: (id: string) => boolean): { calls: number; conversation: Pick<CallPlan, 'conversation'> } {
  if (suite.conversation === undefined) return { calls: toCall, conversation: {} }
  let calls = 0
  let simulated = false
  for (const c of suite.cases) {
    if (!keep(c.id)) continue
    calls += conversationCallsOf(c.input, suite.conversation.user)
    const plan = conversationOf(c.input)
    if (typeof plan !== 'string' && plan.kind === 'simulated') simulated = true
  }
  return { calls, conversation: { conversation: simulated ? 'simulated' : 'scripted' } }
}

/** The sentence printed on stderr before the first call; the bill must equal the calls made. */
export function announce(suite: string, plan: CallPlan, estimate?: UsageEstimate, budgetClause?: string): string {
  if (plan.shard !== undefined) return announceShard(suite, plan, estimate, budgetClause)
  const filtered =
    plan.filteredFrom === undefined
      ? ''
      : `a filtered run of ${plan.cases} of ${plan.filteredFrom} cases, judged by the thresholds alone and not filed (a run of the whole suite is); `
  const slice =
    plan.slice === undefined
      ? ''
      : `a slice (${describeSliceTags(plan.slice.tags)}) of ${plan.cases} of ${plan.slice.suite_cases} cases, filed as a slice of the suite and never its baseline; `
  let line = `digline ${suite}: ${filtered}${slice}${plan.toCall} of ${plan.cases} cases × ${samplesOf(plan)} = ${callsOf(plan)} to the target${cachedClause(plan)}`
  if (plan.resumed || plan.reused > 0 || plan.retried > 0) line += `; ${plan.reused} case(s) already judged, ${plan.retried} retried after an error`
  if (estimate !== undefined && plan.calls > 0) line += `; ${describeEstimate(plan.calls, estimate)}`
  if (budgetClause !== undefined) line += `; ${budgetClause}`
  return line
}

function announceShard(suite: string, plan: CallPlan, estimate?: UsageEstimate, budgetClause?: string): string {
  let line = `digline ${suite}: shard ${plan.shard} takes ${plan.share} of ${plan.cases} cases; ${plan.toCall} × ${samplesOf(plan)} = ${callsOf(plan)} to the target${cachedClause(plan)}`
  if (plan.resumed) line += `; ${plan.reused} of its case(s) already judged, ${plan.retried} retried after an error`
  if (estimate !== undefined && plan.calls > 0) line += `; ${describeEstimate(plan.calls, estimate)}`
  if (budgetClause !== undefined) line += `; ${budgetClause}`
  return line
}

/** "3 samples", or with adaptive samples "3 to 9 samples" (each case stops when its verdict is settled). */
function samplesOf(plan: CallPlan): string {
  const samples = plan.minSamples !== undefined ? `${plan.minSamples} to ${plan.samples} samples` : `${plan.samples} sample${plan.samples === 1 ? '' : 's'}`
  if (plan.conversation === undefined) return samples
  return `${samples} × each conversation's turns${plan.conversation === 'simulated' ? " and its simulated user's messages" : ''}`
}

/** "12 calls", or with adaptive samples "at most 12 calls": the bill is the ceiling the budget and acknowledgements are held to. */
function callsOf(plan: CallPlan): string {
  const ceiling = plan.minSamples !== undefined || plan.conversation === 'simulated'
  return `${ceiling ? 'at most ' : ''}${plan.calls} call${plan.calls === 1 ? '' : 's'}`
}

function cachedClause(plan: CallPlan): string {
  return plan.cached === 0 ? '' : ` (${plan.cached} more answer${plan.cached === 1 ? '' : 's'} from the response cache: this run will not be promotable)`
}
