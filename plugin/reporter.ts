// The main-process reporter: prints each suite's verdict and owns process.exitCode (SPEC §5).
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import type { SerializedError } from 'vitest'
import { appendFileSync } from 'node:fs'
import pc from 'picocolors'
import { diglineErrorKind, reviveError } from '../src/errors/recognise.js'
import type { DiglineError } from '../src/errors/base.js'
import { EXIT_CODES, exitCodeForLaunch, type ExitCode } from '../src/exit-codes.js'
import type { SuiteOutcome, VariantComparison } from '../src/host/index.js'
import {
  describeFamily,
  familyWise,
  formatLaunchMarkdown,
  formatOutcome,
  formatVariantMarkdown,
  formatVariantTable,
  type FamilyWise,
  type LaunchFamily,
} from '../src/host/index.js'
import './provided.js'
import { isCaseFailed } from './test-errors.js'
import { printable } from '../src/suite/printable-text.js'
import { emptySliceRefusal } from '../src/suite/slice.js'

interface Collected {
  outcomes: SuiteOutcome[]
  /** The launch-wide decision over every gate of every judged suite (ADR 0242). */
  family?: LaunchFamily
  /** The variant table of each suite with variants that this launch filed (SPEC §15). */
  variants: VariantComparison[]
  refusals: string[]
  failures: string[]
  failedTests: number
}

function firstLine(message: string | undefined): string {
  return printable((message ?? '').split('\n')[0] ?? '')
}

export class DiglineReporter implements Reporter {
  private exitCode: ExitCode | undefined
  private vitest: Vitest | undefined

  constructor(
    private readonly familyWiseMethod: FamilyWise = 'holm',
    /** A refusal of the whole launch, found before any suite file was loaded (an unusable temporary directory). */
    private readonly launchRefusal?: DiglineError,
  ) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    vitest.onClose(() => {
      if (this.exitCode !== undefined) process.exitCode = this.exitCode
    })
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const collected = this.collect(testModules, unhandledErrors)
    if (this.launchRefusal !== undefined) collected.refusals.unshift(`the launch: ${this.launchRefusal.name}: ${printable(this.launchRefusal.message)}`)
    // The launch-wide decision is made here, from the outcomes alone: a replayed reporter reaches the same one.
    const decided = familyWise(collected.outcomes, this.familyWiseMethod)
    collected.outcomes = decided.outcomes
    collected.family = decided.family
    const hasDigline = collected.outcomes.length > 0 || collected.refusals.length > 0 || collected.failures.length > 0
    if (!hasDigline) {
      // A slice by tag that no case carries ran nothing: said, and refused, rather than exit 0 in silence.
      const empty = emptySliceRefusal(process.env)
      if (empty === undefined) return
      collected.refusals.push(`the launch: ${printable(empty.message)}`)
    }
    const exitCode = exitCodeForLaunch({
      verdicts: collected.outcomes.map((o) => o.status),
      refusals: collected.refusals.length,
      failures: collected.failures.length,
      failedTests: collected.failedTests,
    })
    this.exitCode = exitCode
    process.exitCode = exitCode
    this.print(collected, exitCode)
    this.writeStepSummary(collected, exitCode)
  }

  /** In GitHub Actions, the verdicts as markdown on the job's summary page. */
  private writeStepSummary(c: Collected, exitCode: ExitCode): void {
    const path = process.env.GITHUB_STEP_SUMMARY
    if (path === undefined || path === '') return
    let text = formatLaunchMarkdown(c.outcomes, exitCode)
    for (const table of c.variants) text += `\n${formatVariantMarkdown(table)}`
    const family = c.family === undefined ? undefined : describeFamily(c.family)
    if (family !== undefined) text += `\n${family}\n`
    const other = [...c.refusals.map((r) => `- refused ${r}`), ...c.failures.map((f) => `- failed ${f}`)]
    if (c.failedTests > 0) other.push(`- ${c.failedTests} other test(s) failed`)
    if (other.length > 0) text += `\n${other.map((line) => line.split('\n')[0]).join('\n')}\n`
    try {
      appendFileSync(path, text)
    } catch (error) {
      ;(this.vitest?.logger ?? console).error(`digline: could not append to GITHUB_STEP_SUMMARY (${path}): ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private collect(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): Collected {
    const c: Collected = { outcomes: [], variants: [], refusals: [], failures: [], failedTests: 0 }
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
          moduleOutcomes++
        }
        if (meta?.kind === 'case' && meta.case.verdict === 'error')
          erroredCases.push(`${where} › ${meta.suite} › ${meta.case.case_id}: ${firstLine(meta.case.reason ?? 'errored')}`)
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

  private print(c: Collected, exitCode: ExitCode): void {
    const out: string[] = ['']
    for (const outcome of c.outcomes) out.push(formatOutcome(outcome), '')
    for (const table of c.variants) out.push(printable(formatVariantTable(table)), '')
    for (const r of c.refusals) out.push(`${pc.red('refused')} ${r}`)
    for (const f of c.failures) out.push(`${pc.red('failed')} ${f}`)
    if (c.failedTests > 0) out.push(`${c.failedTests} other test(s) failed`)
    const family = c.family === undefined ? undefined : describeFamily(c.family)
    if (family !== undefined) out.push(pc.dim(printable(family)))
    out.push(`${pc.bold('digline')} exit ${exitCode}: ${exitMeaning(c, exitCode)}`)
    ;(this.vitest?.logger ?? console).log(out.join('\n'))
  }
}

/** A shard whose run is still open was not judged: its 0 says its own cases ran, not that the run holds. */
function exitMeaning(c: Collected, exitCode: ExitCode): string {
  const open = c.outcomes.filter((o) => o.shard?.open === true)
  if (exitCode !== 0 || open.length === 0) return EXIT_CODES[exitCode].meaning
  const held = c.outcomes.length - open.length
  return `this shard's cases ran; ${open.length} run(s) still open, judged by the shard that finishes last${held > 0 ? `; the ${held} other suite(s) hold` : ''}`
}
