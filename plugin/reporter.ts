// The main-process reporter: prints each suite's verdict and owns process.exitCode (SPEC §5).
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import type { SerializedError } from 'vitest'
import { appendFileSync } from 'node:fs'
import pc from 'picocolors'
import type { DiglineError } from '../src/errors/base.js'
import { EXIT_CODES, exitCodeForLaunch, type ExitCode } from '../src/exit-codes.js'
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
import { tallyLaunch, type LaunchTally } from './launch-tally.js'
import { printable } from '../src/suite/printable-text.js'
import { emptySliceRefusal } from '../src/suite/slice.js'

interface Collected extends LaunchTally {
  /** The launch-wide decision over every gate of every judged suite (ADR 0242). */
  family?: LaunchFamily
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
    const collected: Collected = tallyLaunch(testModules, unhandledErrors)
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
