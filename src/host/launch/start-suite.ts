// One host call starts a suite in whatever launch it is part of (suite-launch.ts): every refusal
// before the first call, the announced bill, what is left out; then `run` settles it and resolves
// to its outcome. The front end (plugin/suite-run.ts) keeps only its own side: a result per test,
// and the stop.
import type { OnCase } from '../../document/case-progress.js'
import { InternalError } from '../../errors/base.js'
import type { Store } from '../../store/contract.js'
import { openStore } from '../../store/open-store.js'
import type { ResolvedSuite } from '../../suite/types.js'
import { judgeRun } from '../judge/judge-run.js'
import type { SuiteOutcome } from '../judge/suite-outcome.js'
import { SuiteReporter } from './launch-report.js'
import { launchSuite } from './launch-suite.js'
import type { CallPlan, RunContext } from './prepare-run.js'
import { PLANNED_NOTE, type SuiteLaunch } from './suite-launch.js'

export interface StartSuiteOptions {
  ctx: RunContext
  /** Case ids Vitest selected; undefined when every case runs. */
  only: ReadonlySet<string> | undefined
  /** The user's case hooks: they hear each case called now, after its journal record is durable. */
  hooks: readonly OnCase[]
  /** Where the launch says what it is about to do (stderr by default). */
  say?: (line: string) => void
}

export interface StartedSuite {
  /** The case ids this launch settles, in suite order (those judged in an earlier leg included). */
  ids: readonly string[]
  /** Case id → why it is not part of this launch (a replay without its answer, a plan-only launch). */
  leftOut: ReadonlyMap<string, string>
  /** A plan-only launch: the bill was reported and nothing is called; `run` rejects. */
  planned: boolean
  /** The bill the launch announced; undefined for a replay or a merge, which call nothing. */
  plan: CallPlan | undefined
  /**
   * Settles the suite: `onCase` (the front end's) hears every case, those judged in an earlier leg
   * first; the signal stops it (its journal stays resumable).
   */
  run(onCase: OnCase, signal: AbortSignal): Promise<SuiteOutcome>
}

const sayOnStderr = (line: string) => void process.stderr.write(`${line}\n`)

export async function startSuite(suite: ResolvedSuite, launch: SuiteLaunch, options: StartSuiteOptions): Promise<StartedSuite> {
  const say = options.say ?? sayOnStderr
  if (launch.kind === 'skip') throw new InternalError(`suite ${suite.name} was started, though its launch skips it (${launch.why})`)
  // A replay and a merge load their modules on their own path: a calling launch never needs them (ADR 0486).
  if (launch.kind === 'rejudge') {
    const { announceReplay, prepareReplay, replayRun } = await import('../lifecycle/rejudge.js')
    const ctx = { ...options.ctx, tenant: launch.tenant, storeRoot: launch.store }
    const store = openStore({ store: ctx.storeRoot })
    const replay = await prepareReplay(suite, ctx, store, launch.request)
    say(announceReplay(suite.name, replay))
    const note = `no recorded answer in run ${launch.request.source.key} of suite ${launch.request.source.suite}: left out of the replay`
    return {
      ids: replay.shared,
      leftOut: new Map(replay.leftOut.map((id) => [id, note])),
      planned: false,
      plan: undefined,
      async run(onCase, signal) {
        const measured = await replayRun(replay, { store, onCase: [...options.hooks, onCase], signal })
        return judgeRun(store, measured.document, measured.stored)
      },
    }
  }
  const store = openStore({ store: options.ctx.storeRoot })
  if (launch.kind === 'merge') {
    const { fileMergedRun } = await import('../lifecycle/merge-shards.js')
    const { request } = launch
    say(`digline ${suite.name}: filing run ${request.key} from the journals of its shards in ${request.stores.join(', ')}; nothing is called`)
    return {
      ids: suite.cases.map((c) => c.id),
      leftOut: new Map(),
      planned: false,
      plan: undefined,
      async run(onCase) {
        const measured = await fileMergedRun(suite, options.ctx, store, request)
        for (const result of measured.document.results) await onCase({ result, cause: null, observed: measured.document.observed, index: -1 })
        return judgeRun(store, measured.document, measured.stored)
      },
    }
  }
  return startCalling(suite, launch, store, options, say)
}

async function startCalling(
  suite: ResolvedSuite,
  launch: Extract<SuiteLaunch, { kind: 'fresh' | 'resume' }>,
  store: Store,
  options: StartSuiteOptions,
  say: (line: string) => void,
): Promise<StartedSuite> {
  const reporter = new SuiteReporter(suite.name, launch.reports)
  // The bill is the last line launchSuite says before it returns.
  let announcement = ''
  const launched = await launchSuite({
    suite,
    ctx: options.ctx,
    store,
    only: options.only,
    say: (line) => {
      announcement = line
      say(line)
    },
    ...(launch.kind === 'resume' ? { resume: { key: launch.key, keepErrors: launch.keepErrors } } : {}),
    ...(launch.shard === undefined ? {} : { shard: launch.shard }),
    ...(launch.reports.acknowledged === undefined ? {} : { acknowledged: launch.reports.acknowledged }),
  }).catch((error: unknown) => {
    reporter.refused(error)
    throw error
  })
  const { prepared, ids } = launched
  if (launch.reports.plan !== undefined) {
    reporter.planned(prepared.key, prepared.plan, announcement)
    return { ids, leftOut: new Map(ids.map((id) => [id, PLANNED_NOTE])), planned: true, plan: prepared.plan, run: () => Promise.reject(new Error(PLANNED_NOTE)) }
  }
  return {
    ids,
    leftOut: new Map(),
    planned: false,
    plan: prepared.plan,
    run(onCase, signal) {
      const outcome = launched.run({ hooks: options.hooks, onCase: reporter.onCase(onCase), signal })
      reporter.settled(outcome)
      return outcome
    },
  }
}
