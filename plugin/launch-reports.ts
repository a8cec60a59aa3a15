// What a suite's launch reports to the front end that launched it (digline mcp), when the launch
// reports ask for it (src/host/launch/launch-directive.ts): its bill or refusal on a plan-only launch, each
// settled case and the outcome on a run. Without reports, every method here does nothing.
import type { OnCase } from '../src/document/case-progress.js'
import { isDiglineError } from '../src/errors/base.js'
import { decodeReports } from '../src/host/index.js'
import { appendReport } from '../src/host/index.js'
import type { LaunchedSuite } from '../src/host/index.js'
import type { SuiteOutcome } from '../src/host/index.js'

export const PLANNED_NOTE = 'planned only: the bill was announced and nothing was called'

export class LaunchReports {
  private readonly plan: string | undefined
  private readonly progress: string | undefined
  private lastSaid = ''

  constructor(
    private readonly suite: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    const reports = decodeReports(env)
    this.plan = reports.plan
    this.progress = reports.progress
  }

  /** A plan-only launch: report the bill, call nothing. */
  get planOnly(): boolean {
    return this.plan !== undefined
  }

  /** Passes a line on, keeping the last one: the bill is the last line launchSuite says before it returns. */
  sayVia(say: (line: string) => void): (line: string) => void {
    return (line) => {
      this.lastSaid = line
      say(line)
    }
  }

  refused(error: unknown): void {
    const path = this.plan ?? this.progress
    if (path !== undefined && isDiglineError(error)) appendReport(path, { kind: 'refusal', suite: this.suite, refusal: error.toData() })
  }

  planned(launched: LaunchedSuite): void {
    if (this.plan !== undefined) appendReport(this.plan, { suite: this.suite, key: launched.prepared.key, plan: launched.prepared.plan, announcement: this.lastSaid })
  }

  /** The front end's per-case hook, reporting each settled case first. */
  onCase(onCase: OnCase): OnCase {
    const path = this.progress
    if (path === undefined) return onCase
    return (p) => {
      appendReport(path, { kind: 'case', suite: this.suite, case_id: p.result.case_id, verdict: p.result.verdict, earlier: p.index === -1 })
      return onCase(p)
    }
  }

  settled(outcome: Promise<SuiteOutcome>): void {
    const path = this.progress
    if (path === undefined) return
    outcome.then(
      (o) => appendReport(path, { kind: 'outcome', suite: this.suite, outcome: o }),
      (error: unknown) => this.refused(error),
    )
  }
}
