// What a launch's tests say when it ends: every suite's outcome, the variant tables, and the
// refusals and failures its tests and modules carry. Two reporters need it at the end of a run
// (held verdicts, then digline's own); one walk of every test serves both (ADR 0570).
import type { TestModule } from 'vitest/node'
import type { SerializedError } from 'vitest'
import { diglineErrorKind, reviveError } from '../src/errors/recognise.js'
import type { SuiteOutcome, VariantComparison } from '../src/host/index.js'
import { printable } from '../src/suite/printable-text.js'
import { isCaseFailed } from './test-errors.js'
import './provided.js'

export interface LaunchTally {
  /** In module order; the ids of the tests that carry them in `carriers`, at the same index. */
  outcomes: SuiteOutcome[]
  carriers: { id: string; verdictTest: boolean }[]
  /** The variant table of each suite with variants that this launch filed (SPEC §15). */
  variants: VariantComparison[]
  refusals: string[]
  failures: string[]
  failedTests: number
}

const tallied = new WeakMap<ReadonlyArray<TestModule>, { unhandledErrors: ReadonlyArray<SerializedError>; tally: LaunchTally }>()

/**
 * The tally of one end of a run. Vitest hands every reporter the same list of modules, so the
 * second reporter to ask gets the first one's tally; the tests are read before any reporter of
 * this launch changes them, and what the held verdicts change (a regressed verdict test made to
 * pass) is what the tally leaves out anyway. A copy comes back, so neither reporter sees the
 * other's edits.
 */
export function tallyLaunch(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): LaunchTally {
  const known = tallied.get(testModules)
  const tally = known !== undefined && known.unhandledErrors === unhandledErrors ? known.tally : walk(testModules, unhandledErrors)
  if (known === undefined) tallied.set(testModules, { unhandledErrors, tally })
  return {
    outcomes: [...tally.outcomes],
    carriers: [...tally.carriers],
    variants: [...tally.variants],
    refusals: [...tally.refusals],
    failures: [...tally.failures],
    failedTests: tally.failedTests,
  }
}

function firstLine(message: string | undefined): string {
  return printable((message ?? '').split('\n')[0] ?? '')
}

function walk(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): LaunchTally {
  const c: LaunchTally = { outcomes: [], carriers: [], variants: [], refusals: [], failures: [], failedTests: 0 }
  // Errors arrive from the workers as plain data; only digline's own (brand + a name its tables
  // own) count as refusals or failures, whatever a user's error is called.
  const classify = (data: unknown, where: string) => {
    const kind = diglineErrorKind(data)
    if (kind === undefined) return false
    const error = reviveError(data)
    if (kind === 'refusal') c.refusals.push(`${where}: ${printable(error.message)}`)
    else c.failures.push(`${where}: ${kind === 'internal' ? printable(error.message) : firstLine(error.message)}`)
    return true
  }
  for (const module of testModules) {
    const where = module.relativeModuleId
    let moduleFailed = false
    for (const error of module.errors()) {
      if (!classify(error, where)) c.failures.push(`${where}: ${firstLine(error.message)}`)
      moduleFailed = true
    }
    // the outcomes the launch decides over: none from a module that failed to run
    if (moduleFailed) continue
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors()) if (!classify(error, `${where} › ${suite.fullName}`)) c.failures.push(`${where} › ${suite.fullName}: ${firstLine(error.message)}`)
    }
    const erroredCases: string[] = []
    let moduleOutcomes = 0
    for (const test of module.children.allTests()) {
      const meta = test.meta().digline
      const result = test.result()
      if (meta?.kind === 'variants') c.variants.push(meta.table)
      if (meta?.kind === 'suite' || (meta?.kind === 'case' && meta.outcome !== undefined)) {
        c.outcomes.push(meta.outcome!)
        c.carriers.push({ id: test.id, verdictTest: meta.kind === 'suite' })
        moduleOutcomes++
      }
      if (meta?.kind === 'case' && meta.case.verdict === 'error') erroredCases.push(`${where} › ${meta.suite} › ${meta.case.case_id}: ${firstLine(meta.case.reason ?? 'errored')}`)
      if (result.state !== 'failed') continue
      // A judged case's test fails only when it errored, which its suite's outcome counts, or, under
      // --ui, when it failed, which the suite's gate allows or not (ADR 0385); any other red test
      // (a timeout, say) must not pass unnoticed.
      const error = result.errors?.[0]
      if (meta?.kind === 'suite' || (meta?.kind === 'case' && meta.case.verdict === 'error')) continue
      if (meta?.kind === 'case' && meta.case.verdict === 'fail' && isCaseFailed(error)) continue
      if (error !== undefined && classify(error, `${where} › ${test.fullName}`)) continue
      if (test.name === 'digline verdict') c.failures.push(`${where} › ${test.fullName}: ${firstLine(error?.message)}`)
      else c.failedTests++
    }
    // a filtered run has no verdict test to carry its errored cases
    if (moduleOutcomes === 0) c.failures.push(...erroredCases)
  }
  for (const error of unhandledErrors) if (!classify(error, 'unhandled')) c.failures.push(`unhandled: ${firstLine(error.message)}`)
  return c
}
