// One launch of one suite, fresh or resumed, as the front ends see it: every refusal before the
// first call (a filtered resume, a key already taken), the announced bill, then the measurement and
// the comparison with the baseline. A stop (the signal) leaves the journal resumable.
import type { OnCase } from '../../document/case-progress.js'
import { BillChangedError, ResumeFilteredError, RunStoppedError } from './errors.js'
import { BudgetStop } from '../../driver/budget.js'
import type { Store } from '../../store/contract.js'
import type { ResolvedSuite } from '../../suite/types.js'
import { judgeRun } from '../judge/judge-run.js'
import { assertFreshKeyFree } from './fresh-key-guard.js'
import { measureRun, type MeasureOptions } from './measure-run.js'
import { assertShardCreatedAt, casesOfShard, shardLabel, type Shard } from './shard.js'
import { findPending, notePendingJournals } from '../project/pending-journals.js'
import { announce, prepareRun, withCachedAnswers, type Prepared, type ResumeRequest, type RunContext } from './prepare-run.js'
import { cacheSetting } from '../cache/cache-setting.js'
import { toolReplayMode } from '../tools/tool-replay-setting.js'
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
  /** suite → the calls the front end acknowledged (digline mcp): a bill that differs is refused before any call. */
  acknowledged?: Readonly<Record<string, number>>
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
  if (shard !== undefined && resume === undefined) assertShardCreatedAt(shard, ctx.env ?? process.env)
  await assertNotRetired(
    store,
    ctx.tenant,
    suite.name,
    resume === undefined ? `run suite ${suite.name} (nothing was called)` : `resume run ${resume.key} of suite ${suite.name} (nothing was called)`,
  )
  let request: ResumeRequest | undefined
  if (resume !== undefined && shard !== undefined) {
    const { findShardPending } = await import('./measure-shard.js')
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
  const cacheOn = cacheSetting(suite, env, ctx.watch === true)
  const toolMode = toolReplayMode(suite, env)
  let prepared = await prepareRun(suite, ctx, only, request, shard)
  // A filtered run writes nothing, so only a whole fresh run can take a key that is not free.
  if (request === undefined && only === undefined) await assertFreshKeyFree(store, ctx.tenant, suite.name, prepared.key, shard, suite.variant)
  // A conversation is never cached: its answer depends on the simulated user, which the cache key does not cover (ADR 0311).
  // The cache, the tool replay and a shard's settling load their modules only when a launch uses them (ADR 0486).
  if (cacheOn !== 'off' && suite.conversation === undefined) {
    const [{ cacheStoreFor }, { openAnswerCache }, { codeFilesOf }] = await Promise.all([
      import('../cache/cache-store.js'),
      import('../cache/answer-cache.js'),
      import('../cache/code-files.js'),
    ])
    const cacheStore = cacheStoreFor(store, ctx.storeRoot, ctx.projectRoot, cacheOn)
    const cache = await openAnswerCache(cacheStore, prepared, await codeFilesOf(ctx.suiteFile, ctx.projectRoot), say)
    prepared = { ...prepared, cache, plan: withCachedAnswers(prepared.plan, cache.count) }
  }
  const tools = toolMode === 'off' ? undefined : { mode: toolMode, ...(await import('../tools/tool-replay.js')) }
  if (tools !== undefined) prepared = { ...prepared, toolReplay: tools.openToolReplay(store, { tenant: ctx.tenant, suite, key: prepared.key }, tools.mode, say) }
  if (budget !== undefined) prepared = { ...prepared, budget }
  const estimate = await estimateFromHistory(store, ctx.tenant, suite.name)
  const budgetClause = budget === undefined ? undefined : holdBillAgainstBudget(prepared, budget, estimate, env)
  const announcement = announce(suite.name, prepared.plan, estimate, budgetClause)
  if (options.acknowledged !== undefined) assertAcknowledged(suite.name, prepared.plan.calls, options.acknowledged, announcement)
  say(announcement + (cacheOn === 'off' ? '' : keptClause(suite.recordResponses)) + (tools === undefined ? '' : tools.toolReplayClause(tools.mode, suite.recordResponses)))
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
        if (prepared.toolReplay !== undefined && tools !== undefined) say(tools.toolTallyLine(suite.name, prepared.toolReplay))
        return await judgeRun(store, measured.document, measured.stored)
      } catch (error) {
        if (signal?.aborted) throw stoppedError(prepared, signal.reason)
        if (error instanceof BudgetStop) throw budgetReached(prepared, prepared.plan, error)
        throw error
      }
    },
  }
}

/** SPEC §7: the cache keeps answers, so a launch with it on says so, even when the run records none. */
function keptClause(recorded: boolean): string {
  return `; the response cache keeps the target's answers while it is on${recorded ? '' : ', though this suite records no responses'} (\`digline cache clear\` or deleting the run removes them)`
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
  const { measureShard, openShardOutcome } = await import('./measure-shard.js')
  const settled = await measureShard(prepared, options)
  if (settled.kind === 'open') return openShardOutcome(prepared, settled.results, settled.waiting)
  const outcome = await judgeRun(store, settled.measured.document, settled.measured.stored)
  return { ...outcome, shard: { shard: shardLabel(prepared.shard!), open: false, waiting: [] } }
}

/** The run's own bill, computed by its worker, must be the one the front end acknowledged (SPEC §13). */
function assertAcknowledged(suite: string, calls: number, acknowledged: Readonly<Record<string, number>>, announcement: string): void {
  const agreed = Object.hasOwn(acknowledged, suite) ? acknowledged[suite] : undefined
  if (agreed === calls) return
  throw new BillChangedError(
    agreed === undefined
      ? `suite ${suite} was refused: it was not in the acknowledged plan, and its bill is ${calls} call(s) to the target (${announcement}); nothing was called for it`
      : `suite ${suite} was refused: its bill is now ${calls} call(s) to the target, and ${agreed} were acknowledged (${announcement}); nothing was called for it`,
    'Call plan_run again, then run_suite or resume_run with acknowledgedCalls equal to its calls.',
    ['acknowledgedCalls'],
  )
}
