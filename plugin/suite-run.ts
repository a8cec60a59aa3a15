// One launch of one suite inside a Vitest worker: prepared before the first test, executed in the
// background with the suite's own concurrency, awaited case by case by the tests.
import type { CaseResult } from '../src/document/schema.js'
import type { OnCase } from '../src/document/case-progress.js'
import type { RunContext } from '../src/host/index.js'
import { launchSuite, type LaunchedSuite } from '../src/host/index.js'
import type { SuiteOutcome } from '../src/host/index.js'
import type { Store } from '../src/host/index.js'
import type { ResolvedSuite } from '../src/suite/types.js'
import type { ResumeDirective } from './resume-request.js'
import type { Shard } from '../src/host/index.js'
import { fileMergedRun, type MergeRequest } from '../src/host/index.js'
import { announceReplay, prepareReplay, replayRun, type RejudgeRequest } from '../src/host/index.js'
import { judgeRun } from '../src/host/index.js'
import { trackRun, workerStopSignal } from './stop-signal.js'
import { LaunchReports, PLANNED_NOTE } from './launch-reports.js'

interface Deferred<T> {
  promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  promise.catch(() => {}) // awaited by a test, or by nobody when the test is filtered out
  return { promise, resolve, reject }
}

export interface SuiteRunOptions {
  suite: ResolvedSuite
  ctx: RunContext
  store: Store
  only: ReadonlySet<string> | undefined
  directive: ResumeDirective
  hooks: readonly OnCase[]
  /** Replay a recorded run with this suite's scorers instead of asking its target. */
  rejudge?: RejudgeRequest
  /** Run only this shard's share of the cases (DIGLINE_SHARD). */
  shard?: Shard
  /** File the run from its shards' journals (`digline merge`) instead of calling the target. */
  merge?: MergeRequest
}

export class SuiteRun {
  private readonly cases = new Map<string, Deferred<CaseResult>>()
  /** Aborted by a stop: a Vitest timeout or cancel (--bail) of a test of this suite, or the worker's stop signal. */
  private readonly stopper = new AbortController()
  readonly outcome: Promise<SuiteOutcome>

  private constructor(
    ids: readonly string[],
    run: (onCase: OnCase, signal: AbortSignal) => Promise<SuiteOutcome>,
    private readonly leftOut: ReadonlyMap<string, string> = new Map(),
    /** A plan-only launch (digline mcp's plan_run): the bill was reported, and nothing is called. */
    readonly planned = false,
  ) {
    for (const id of ids) this.cases.set(id, deferred())
    const signal = AbortSignal.any([this.stopper.signal, workerStopSignal()])
    this.outcome = run((p) => this.cases.get(p.result.case_id)?.resolve(p.result), signal)
    trackRun(this.outcome)
    this.outcome.catch((error) => {
      for (const d of this.cases.values()) d.reject(error)
    })
  }

  static async start({ suite, ctx, store, only, directive, hooks, rejudge, shard, merge }: SuiteRunOptions): Promise<SuiteRun> {
    const say = (line: string) => process.stderr.write(`${line}\n`)
    if (rejudge !== undefined) return SuiteRun.replay({ suite, ctx, store, hooks }, rejudge, say)
    if (merge !== undefined) return SuiteRun.merge({ suite, ctx, store }, merge, say)
    const resume = directive.kind === 'resume' ? { key: directive.key, keepErrors: directive.keepErrors } : undefined
    const reports = new LaunchReports(suite.name)
    let launched: LaunchedSuite
    try {
      launched = await launchSuite({ suite, ctx, store, only, say: reports.sayVia(say), ...(resume === undefined ? {} : { resume }), ...(shard === undefined ? {} : { shard }) })
    } catch (error) {
      reports.refused(error)
      throw error
    }
    if (reports.planOnly) {
      reports.planned(launched)
      return new SuiteRun(launched.ids, () => Promise.reject(new Error(PLANNED_NOTE)), new Map(launched.ids.map((id) => [id, PLANNED_NOTE])), true)
    }
    const started = new SuiteRun(launched.ids, (onCase, signal) => launched.run({ hooks, onCase: reports.onCase(onCase), signal }))
    reports.settled(started.outcome)
    return started
  }

  /** Stops the run when a test of the suite is stopped (Vitest timed it out, or cancelled the launch). */
  stopWith(signal: AbortSignal): void {
    if (signal.aborted) this.stopper.abort(signal.reason)
    else signal.addEventListener('abort', () => this.stopper.abort(signal.reason), { once: true })
  }

  private static async replay(
    { suite, ctx, store, hooks }: Pick<SuiteRunOptions, 'suite' | 'ctx' | 'store' | 'hooks'>,
    request: RejudgeRequest,
    say: (line: string) => void,
  ): Promise<SuiteRun> {
    const replay = await prepareReplay(suite, ctx, store, request)
    say(announceReplay(suite.name, replay))
    const note = `no recorded answer in run ${request.source.key} of suite ${request.source.suite}: left out of the replay`
    const leftOut = new Map(replay.leftOut.map((id) => [id, note]))
    return new SuiteRun(
      replay.shared,
      async (resolveCase, signal) => {
        const measured = await replayRun(replay, { store, onCase: [...hooks, resolveCase], signal })
        return judgeRun(store, measured.document, measured.stored)
      },
      leftOut,
    )
  }

  private static merge({ suite, ctx, store }: Pick<SuiteRunOptions, 'suite' | 'ctx' | 'store'>, request: MergeRequest, say: (line: string) => void): SuiteRun {
    say(`digline ${suite.name}: filing run ${request.key} from the journals of its shards in ${request.stores.join(', ')}; nothing is called`)
    return new SuiteRun(
      suite.cases.map((c) => c.id),
      async (resolveCase) => {
        const measured = await fileMergedRun(suite, ctx, store, request)
        for (const result of measured.document.results) await resolveCase({ result, cause: null, observed: measured.document.observed, index: -1 })
        return judgeRun(store, measured.document, measured.stored)
      },
    )
  }

  /** Why a case is not part of this launch (a replay without its answer), or undefined. */
  leftOutNote(id: string): string | undefined {
    return this.leftOut.get(id)
  }

  caseResult(id: string): Promise<CaseResult> {
    const d = this.cases.get(id)
    if (d === undefined) return Promise.reject(new Error(`case ${id} is not part of this run`))
    return d.promise
  }
}
