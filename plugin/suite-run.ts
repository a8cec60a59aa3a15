// One launch of one suite inside a Vitest worker, on Vitest's side: the host starts it before the
// first test (src/host/launch/start-suite.ts); here each test awaits its case's result, and a stop
// of any test of the suite, or of the worker, stops the run.
import type { CaseResult } from '../src/document/schema.js'
import { startSuite, type StartSuiteOptions, type SuiteLaunch, type SuiteOutcome } from '../src/host/index.js'
import type { ResolvedSuite } from '../src/suite/types.js'
import { trackRun, workerStopSignal } from './stop-signal.js'

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

export class SuiteRun {
  private readonly cases = new Map<string, Deferred<CaseResult>>()
  /** Aborted by a stop: a Vitest timeout or cancel (--bail) of a test of this suite, or the worker's stop signal. */
  private readonly stopper = new AbortController()
  readonly outcome: Promise<SuiteOutcome>

  private constructor(
    ids: readonly string[],
    run: (onCase: (p: { result: CaseResult }) => void, signal: AbortSignal) => Promise<SuiteOutcome>,
    private readonly leftOut: ReadonlyMap<string, string>,
    /** A plan-only launch (digline mcp's plan_run): the bill was reported, and nothing is called. */
    readonly planned: boolean,
  ) {
    for (const id of ids) this.cases.set(id, deferred())
    const signal = AbortSignal.any([this.stopper.signal, workerStopSignal()])
    this.outcome = run((p) => this.cases.get(p.result.case_id)?.resolve(p.result), signal)
    trackRun(this.outcome)
    this.outcome.catch((error) => {
      for (const d of this.cases.values()) d.reject(error)
    })
  }

  static async start(suite: ResolvedSuite, launch: SuiteLaunch, options: StartSuiteOptions): Promise<SuiteRun> {
    const started = await startSuite(suite, launch, options)
    return new SuiteRun(started.ids, (onCase, signal) => started.run(onCase, signal), started.leftOut, started.planned)
  }

  /** Stops the run when a test of the suite is stopped (Vitest timed it out, or cancelled the launch). */
  stopWith(signal: AbortSignal): void {
    if (signal.aborted) this.stopper.abort(signal.reason)
    else signal.addEventListener('abort', () => this.stopper.abort(signal.reason), { once: true })
  }

  /** Why a case is not part of this launch (a replay without its answer, a plan-only launch), or undefined. */
  leftOutNote(id: string): string | undefined {
    return this.leftOut.get(id)
  }

  caseResult(id: string): Promise<CaseResult> {
    const d = this.cases.get(id)
    if (d === undefined) return Promise.reject(new Error(`case ${id} is not part of this run`))
    return d.promise
  }
}
