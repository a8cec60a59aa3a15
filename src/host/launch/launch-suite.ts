// One launch of one suite, fresh or resumed, as the front ends see it: every refusal before the
// first call (a filtered resume, a key already taken), the announced bill, then the measurement and
// the comparison with the baseline. A stop (the signal) leaves the journal resumable.
import type { OnCase } from '../../document/case-progress.js'
import { ResumeFilteredError, RunStoppedError, ShardWithoutCreatedAtError } from './errors.js'
import { BudgetStop } from '../../driver/budget.js'
import type { Store } from '../../store/contract.js'
import type { ResolvedSuite } from '../../suite/types.js'
import { judgeRun } from '../judge/judge-run.js'
import { assertFreshKeyFree } from './fresh-key-guard.js'
import { measureRun, type MeasureOptions } from './measure-run.js'
import { findShardPending, measureShard, openShardOutcome } from './measure-shard.js'
import { casesOfShard, shardLabel, type Shard } from './shard.js'
import { findPending, notePendingJournals } from '../project/pending-journals.js'
import { announce, prepareRun, withCachedAnswers, type Prepared, type ResumeRequest, type RunContext } from './prepare-run.js'
import { openAnswerCache } from '../cache/answer-cache.js'
import { cacheIsOn } from '../cache/cache-setting.js'
import { budgetReached, holdBillAgainstBudget, launchBudget } from './run-budget.js'
import type { SuiteOutcome } from '../judge/suite-outcome.js'
import { assertNotRetired } from '../lifecycle/retired-suites.js'
import { estimateFromHistory } from './usage-estimate.js'

export interface LaunchSuiteOptions {
  suite: ResolvedSuite
  ctx: RunContext
  store: Store
  /** Case ids Vitest selected; undefined when every case runs. */
  only: ReadonlySet<string> | undefined
  /** Finish the pending run KEY instead of starting a fresh one. */
  resume?: { key: string; keepErrors: boolean }
  /** Where the launch says what it is about to do (stderr). */
  say: (line: string) => void
  /** Run only this shard's share of the cases, as one shard of a run split across machines. */
  shard?: Shard
}

export interface LaunchedSuite {
  prepared: Prepared
  /** The case ids this launch settles, in suite order (already-judged ones included). */
  ids: string[]
  /**
   * Runs the suite: `hooks` (the user's) hear each case called now, after its journal record is
   * durable; `onCase` (the front end's) hears those and, first, the ones judged in an earlier leg.
   */
  run(options: { hooks: readonly OnCase[]; onCase: OnCase; signal?: AbortSignal }): Promise<SuiteOutcome>
}

export async function launchSuite(options: LaunchSuiteOptions): Promise<LaunchedSuite> {
  const { suite, ctx, store, resume, say } = options
  let { only, shard } = options
  // A name filter on a shard is an ordinary filtered run of the shard's matching cases: it journals nothing.
  if (shard !== undefined && only !== undefined) {
    const mine = casesOfShard(
      suite.cases.map((c) => c.id),
      shard,
    )
    only = new Set([...only].filter((id) => mine.has(id)))
    shard = undefined
  }
  if (shard !== undefined && resume === undefined) assertSharedCreatedAt(suite.name, shard, ctx.env ?? process.env)
  await assertNotRetired(
    store,
    ctx.tenant,
    suite.name,
    resume === undefined ? `run suite ${suite.name} (nothing was called)` : `resume run ${resume.key} of suite ${suite.name} (nothing was called)`,
  )
  let request: ResumeRequest | undefined
  if (resume !== undefined && shard !== undefined) {
    request = { pending: await findShardPending(store, ctx.tenant, suite.name, resume.key, shard), keepErrors: resume.keepErrors }
  } else if (resume !== undefined) {
    if (only !== undefined) {
      const left = suite.cases.length - only.size
      throw new ResumeFilteredError(
        `refused to resume run ${resume.key} of suite ${suite.name} with a test-name filter: it leaves ${left} of ${suite.cases.length} case(s) out, and a resume runs whole suites; nothing was called`,
        `digline run --resume ${resume.key} (without -t)`,
        ['-t'],
      )
    }
    request = { pending: await findPending(store, ctx.tenant, suite.name, resume.key), keepErrors: resume.keepErrors }
  } else if (only === undefined && shard === undefined) {
    await notePendingJournals(store, ctx.tenant, suite.name, say)
  }
  const env = ctx.env ?? process.env
  const budget = launchBudget(suite, env)
  const cacheOn = cacheIsOn(suite, env, ctx.watch === true)
  let prepared = await prepareRun(suite, ctx, only, request, shard)
  // A filtered run writes nothing, so only a whole fresh run can take a key that is not free.
  if (request === undefined && only === undefined) await assertFreshKeyFree(store, ctx.tenant, suite.name, prepared.key, shard)
  if (cacheOn) {
    const cache = await openAnswerCache(store, prepared, say)
    prepared = { ...prepared, cache, plan: withCachedAnswers(prepared.plan, cache.count) }
  }
  if (budget !== undefined) prepared = { ...prepared, budget }
  const estimate = await estimateFromHistory(store, ctx.tenant, suite.name)
  const budgetClause = budget === undefined ? undefined : holdBillAgainstBudget(prepared, budget, estimate, env)
  say(announce(suite.name, prepared.plan, estimate, budgetClause))
  const selected = only ?? prepared.mine
  const ids = suite.cases.map((c) => c.id).filter((id) => selected === undefined || selected.has(id))
  return {
    prepared,
    ids,
    async run({ hooks, onCase, signal }) {
      for (const [id, result] of prepared.done) if (only === undefined || only.has(id)) await onCase({ result, cause: null, observed: prepared.observedSeed!, index: -1 })
      try {
        if (signal?.aborted) throw signal.reason
        if (prepared.shard !== undefined) return await settleShard(prepared, store, { store, onCase: [...hooks, onCase], ...(signal === undefined ? {} : { signal }) })
        const measured = await measureRun(prepared, { store, onCase: [...hooks, onCase], ...(signal === undefined ? {} : { signal }) })
        return await judgeRun(store, measured.document, measured.stored)
      } catch (error) {
        if (signal?.aborted) throw stoppedError(prepared, signal.reason)
        if (error instanceof BudgetStop) throw budgetReached(prepared, prepared.plan, error)
        throw error
      }
    },
  }
}

function stoppedError(prepared: Prepared, reason: unknown): RunStoppedError {
  const why = reason instanceof Error ? reason.message.split('\n')[0] : String(reason)
  const whole = prepared.only === undefined
  const shard = prepared.shard === undefined ? '' : ` --shard ${shardLabel(prepared.shard)}`
  return new RunStoppedError(
    `run ${prepared.key} of suite ${prepared.suite.name} was stopped (${why}): the calls in flight were aborted and no new call started${whole ? '; the cases judged so far are journaled' : ''}`,
    whole ? `digline run --resume ${prepared.key}${shard}` : 'Run the suite again (a filtered run keeps no journal).',
  )
}

async function settleShard(prepared: Prepared, store: Store, options: MeasureOptions): Promise<SuiteOutcome> {
  const settled = await measureShard(prepared, options)
  if (settled.kind === 'open') return openShardOutcome(prepared, settled.results, settled.waiting)
  const outcome = await judgeRun(store, settled.measured.document, settled.measured.stored)
  return { ...outcome, shard: { shard: shardLabel(prepared.shard!), open: false, waiting: [] } }
}

/** Every shard must share created_at, and so the key: a shard that would take its own instant is refused. */
function assertSharedCreatedAt(suite: string, shard: Shard, env: NodeJS.ProcessEnv): void {
  const createdAt = env.DIGLINE_CREATED_AT
  if (createdAt !== undefined && createdAt !== '') return
  throw new ShardWithoutCreatedAtError(
    `refused shard ${shardLabel(shard)} of suite ${suite}: DIGLINE_CREATED_AT is not set, so this shard would take its own created_at and key and never join the other shards' run; nothing was called`,
    'Set DIGLINE_CREATED_AT to the same instant on every shard (in CI, one value from the workflow run), for example DIGLINE_CREATED_AT=2026-11-29T22:39:56.123456Z',
    ['DIGLINE_CREATED_AT'],
  )
}
