// One launch of one suite inside a Vitest worker: prepared before the first test, executed in the
// background with the suite's own concurrency, awaited case by case by the tests.
import type { CaseResult } from '../src/document/schema.js'
import type { OnCase } from '../src/document/case-progress.js'
import { announce, prepareRun, type ResumeRequest, type RunContext } from '../src/host/prepare-run.js'
import { measureRun } from '../src/host/measure-run.js'
import { estimateFromHistory } from '../src/host/usage-estimate.js'
import { outcomeOf, type SuiteOutcome } from '../src/host/suite-outcome.js'
import { compareWithBaseline } from '../src/host/compare.js'
import { findPending, notePendingJournals } from '../src/host/pending-journals.js'
import type { Store } from '../src/store/contract.js'
import type { ResolvedSuite } from '../src/suite/types.js'
import type { ResumeDirective } from './resume-request.js'
import { announceReplay, prepareReplay, replayRun, type RejudgeRequest } from '../src/host/rejudge.js'

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
}

export class SuiteRun {
  private readonly cases = new Map<string, Deferred<CaseResult>>()
  readonly outcome: Promise<SuiteOutcome>

  private constructor(
    ids: readonly string[],
    run: (onCase: OnCase) => Promise<SuiteOutcome>,
    private readonly leftOut: ReadonlyMap<string, string> = new Map(),
  ) {
    for (const id of ids) this.cases.set(id, deferred())
    this.outcome = run((p) => this.cases.get(p.result.case_id)?.resolve(p.result))
    this.outcome.catch((error) => {
      for (const d of this.cases.values()) d.reject(error)
    })
  }

  static async start({ suite, ctx, store, only, directive, hooks, rejudge }: SuiteRunOptions): Promise<SuiteRun> {
    const say = (line: string) => process.stderr.write(`${line}\n`)
    if (rejudge !== undefined) return SuiteRun.replay({ suite, ctx, store, hooks }, rejudge, say)
    let resume: ResumeRequest | undefined
    if (directive.kind === 'resume') {
      resume = { pending: await findPending(store, ctx.tenant, suite.name, directive.key), keepErrors: directive.keepErrors }
    } else if (only === undefined) {
      await notePendingJournals(store, ctx.tenant, suite.name, say)
    }
    const prepared = await prepareRun(suite, ctx, only, resume)
    say(announce(suite.name, prepared.plan, await estimateFromHistory(store, ctx.tenant, suite.name)))
    const ids = suite.cases.map((c) => c.id).filter((id) => only === undefined || only.has(id))
    return new SuiteRun(ids, async (resolveCase) => {
      for (const [id, result] of prepared.done) if (only === undefined || only.has(id)) resolveCase({ result, cause: null, observed: prepared.observedSeed!, index: -1 })
      const measured = await measureRun(prepared, { store, onCase: [...hooks, resolveCase] })
      // A filtered run is not the suite's measurement, so it is not held against the baseline.
      return outcomeOf(measured, measured.stored === undefined ? undefined : await compareWithBaseline(store, measured.document))
    })
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
      async (resolveCase) => {
        const measured = await replayRun(replay, { store, onCase: [...hooks, resolveCase] })
        return outcomeOf(measured, await compareWithBaseline(store, measured.document))
      },
      leftOut,
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
