// Deciding what a launch of one suite is, before the first call: its created_at and key, its
// identity, and the bill it announces.
import type { ResolvedSuite } from '../suite/types.js'
import { suiteIdentity } from '../suite/resolve-suite.js'
import { keyFor, launchCreatedAt } from '../suite/keys.js'
import { gitCommit } from '../suite/git-commit.js'
import { digestArtifacts } from './artifacts.js'
import type { CaseResult, Observed } from '../document/schema.js'
import type { Pending } from '../store/journal.js'
import { assertResumable, journalHeaderFor, selectDone } from './resume.js'
import { describeEstimate, type UsageEstimate } from './usage-estimate.js'
import type { Budget } from '../suite/types.js'
import type { AnswerCache } from './answer-cache.js'

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
}

export interface CallPlan {
  /** Cases in the suite (or in the filter, when one is given). */
  cases: number
  /** Cases this launch will call. */
  toCall: number
  samples: number
  /** toCall × samples, less the answers from the cache: the calls the target will receive. */
  calls: number
  /** Answers the response cache gives this launch instead of calls. */
  cached: number
  /** Cases already judged in a journal and not called again. */
  reused: number
  /** Cases that errored in a journal and are called again. */
  retried: number
  /** This launch finishes a journaled run. */
  resumed: boolean
}

export interface Prepared {
  suite: ResolvedSuite
  tenant: string
  environment: string
  createdAt: string
  configHash: string
  casesDigest: string
  key: string
  gitCommit: string | undefined
  artifacts: Record<string, string>
  plan: CallPlan
  /** Case ids to run when Vitest filters the suite's tests; undefined means all. */
  only: ReadonlySet<string> | undefined
  /** Cases judged in an earlier leg and not called again. */
  done: ReadonlyMap<string, CaseResult>
  /** The observed identities an earlier leg recorded. */
  observedSeed: Observed | undefined
  /** The journal leg this launch writes. */
  leg: number
  /** The response cache, when this launch uses it. */
  cache?: AnswerCache
  /** This launch's budget, when it has one. */
  budget?: Budget
}

export interface ResumeRequest {
  pending: Pending
  /** Keep errored cases as they are instead of calling them again. */
  keepErrors: boolean
}

export async function prepareRun(suite: ResolvedSuite, ctx: RunContext, only?: ReadonlySet<string>, resume?: ResumeRequest): Promise<Prepared> {
  const createdAt = resume?.pending.header?.created_at ?? launchCreatedAt(ctx.env ?? process.env)
  const { configHash, casesDigest } = suiteIdentity(suite)
  const artifacts = await digestArtifacts(suite.artifacts, ctx.projectRoot, suite.name)
  const cases = only === undefined ? suite.cases.length : suite.cases.filter((c) => only.has(c.id)).length
  const prepared: Prepared = {
    suite,
    tenant: ctx.tenant,
    environment: ctx.environment,
    createdAt,
    configHash,
    casesDigest,
    key: keyFor(createdAt, configHash),
    gitCommit: gitCommit(ctx.projectRoot),
    artifacts,
    plan: { cases, toCall: cases, samples: suite.rules.samples, calls: cases * suite.rules.samples, cached: 0, reused: 0, retried: 0, resumed: false },
    only,
    done: new Map(),
    observedSeed: undefined,
    leg: 1,
  }
  if (resume === undefined) return prepared
  assertResumable(resume.pending, journalHeaderFor(prepared, createdAt))
  const { done, retried } = selectDone(resume.pending, new Set(suite.cases.map((c) => c.id)), resume.keepErrors)
  const toCall = cases - done.size
  return {
    ...prepared,
    done,
    observedSeed: resume.pending.observed,
    leg: Math.max(0, ...resume.pending.legs) + 1,
    plan: { cases, toCall, samples: suite.rules.samples, calls: toCall * suite.rules.samples, cached: 0, reused: done.size, retried, resumed: true },
  }
}

/** The plan once the response cache has said how many answers it gives. */
export function withCachedAnswers(plan: CallPlan, cached: number): CallPlan {
  return { ...plan, cached, calls: plan.toCall * plan.samples - cached }
}

/** The sentence printed on stderr before the first call; the bill must equal the calls made. */
export function announce(suite: string, plan: CallPlan, estimate?: UsageEstimate, budgetClause?: string): string {
  const cached = plan.cached === 0 ? '' : ` (${plan.cached} more answer${plan.cached === 1 ? '' : 's'} from the response cache: this run will not be promotable)`
  let line = `digline ${suite}: ${plan.toCall} of ${plan.cases} cases × ${plan.samples} sample${plan.samples === 1 ? '' : 's'} = ${plan.calls} call${plan.calls === 1 ? '' : 's'} to the target${cached}`
  if (plan.resumed || plan.reused > 0 || plan.retried > 0) line += `; ${plan.reused} case(s) already judged, ${plan.retried} retried after an error`
  if (estimate !== undefined && plan.calls > 0) line += `; ${describeEstimate(plan.calls, estimate)}`
  if (budgetClause !== undefined) line += `; ${budgetClause}`
  return line
}
