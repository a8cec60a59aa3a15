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
  promise.catch(() => {}) // rejected when the run fails, perhaps after its test stopped waiting (a timeout)
  return { promise, resolve, reject }
}

export class SuiteRun {
  private readonly ids: ReadonlySet<string>
  /** Each result as it came; kept, so a test Vitest retries reads the same one. */
  private readonly results = new Map<string, CaseResult>()
  /** The tests waiting for a result that has not come yet: a case holds a promise only while its test waits. */
  private readonly waiting = new Map<string, Deferred<CaseResult>>()
  private failure: { error: unknown } | undefined
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
    this.ids = new Set(ids)
    const signal = AbortSignal.any([this.stopper.signal, workerStopSignal()])
    this.outcome = run((p) => this.settle(p.result), signal)
    trackRun(this.outcome)
    this.outcome.catch((error) => {
      this.failure = { error }
      for (const d of this.waiting.values()) d.reject(error)
      this.waiting.clear()
    })
  }

  private settle(result: CaseResult): void {
    const id = result.case_id
    if (!this.ids.has(id)) return
    this.results.set(id, result)
    const waiting = this.waiting.get(id)
    if (waiting === undefined) return
    this.waiting.delete(id)
    waiting.resolve(result)
  }

  static async start(suite: ResolvedSuite, launch: SuiteLaunch, options: StartSuiteOptions): Promise<SuiteRun> {
    const started = await startSuite(suite, launch, options)
    return new SuiteRun(started.ids, (onCase, signal) => started.run(onCase, signal), started.leftOut, started.planned)
  }

  /** Stops the run when a test of the suite is stopped (Vitest timed it out, or cancelled the launch). */
  stopWith(signal: AbortSignal): void {
    if (signal.aborted) this.stopper.abort(signal.reason)
    // One listener for every test's signal, not a closure made per test; a signal aborts once.
    else signal.addEventListener('abort', this.onTestStopped)
  }

  private readonly onTestStopped = (event: Event): void => {
    this.stopper.abort((event.target as AbortSignal).reason)
  }

  /** Why a case is not part of this launch (a replay without its answer, a plan-only launch), or undefined. */
  leftOutNote(id: string): string | undefined {
    return this.leftOut.get(id)
  }

  caseResult(id: string): Promise<CaseResult> {
    if (!this.ids.has(id)) return Promise.reject(new Error(`case ${id} is not part of this run`))
    const result = this.results.get(id)
    if (result !== undefined) return Promise.resolve(result)
    if (this.failure !== undefined) return Promise.reject(this.failure.error)
    let d = this.waiting.get(id)
    if (d === undefined) this.waiting.set(id, (d = deferred()))
    return d.promise
  }
}
