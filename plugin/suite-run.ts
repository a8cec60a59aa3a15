// One launch of one suite inside a Vitest worker: prepared before the first test, executed in the
// background with the suite's own concurrency, awaited case by case by the tests.
import type { CaseResult } from '../src/document/schema.js'
import type { CaseProgress } from '../src/driver/progress.js'
import { announce, prepareRun, type RunContext } from '../src/host/prepare-run.js'
import { measureRun } from '../src/host/measure-run.js'
import { outcomeOf, type SuiteOutcome } from '../src/host/suite-outcome.js'
import type { ResultStore } from '../src/store/result-store.js'
import type { ResolvedSuite } from '../src/suite/types.js'

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
  readonly outcome: Promise<SuiteOutcome>

  private constructor(outcome: (onCase: (p: CaseProgress) => void) => Promise<SuiteOutcome>, ids: readonly string[]) {
    for (const id of ids) this.cases.set(id, deferred())
    this.outcome = outcome((p) => this.cases.get(p.result.case_id)?.resolve(p.result))
    this.outcome.catch((error) => {
      for (const d of this.cases.values()) d.reject(error)
    })
  }

  static async start(suite: ResolvedSuite, ctx: RunContext, store: ResultStore, only: ReadonlySet<string> | undefined): Promise<SuiteRun> {
    const prepared = await prepareRun(suite, ctx, only)
    process.stderr.write(`${announce(suite.name, prepared.plan)}\n`)
    const ids = suite.cases.map((c) => c.id).filter((id) => only === undefined || only.has(id))
    return new SuiteRun(async (resolveCase) => outcomeOf(await measureRun(prepared, { store, onCase: resolveCase })), ids)
  }

  caseResult(id: string): Promise<CaseResult> {
    const d = this.cases.get(id)
    if (d === undefined) return Promise.reject(new Error(`case ${id} is not part of this run`))
    return d.promise
  }
}
