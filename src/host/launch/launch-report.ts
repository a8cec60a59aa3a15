// What the workers of a launch report to the front end that launched it, one JSON line each in the
// files the launch reports name (launch-directive.ts): a suite's announced bill or the refusal that
// stopped it before any call, each case as it settles, the suite's outcome, and the variant table of a
// suite with variants.
import { appendFileSync, readFileSync } from 'node:fs'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import type { OnCase } from '../../document/case-progress.js'
import type { LaunchReports } from './launch-directive.js'
import type { CaseResult } from '../../document/schema.js'
import type { CallPlan } from './prepare-run.js'
import type { SuiteOutcome } from '../judge/suite-outcome.js'
import type { VariantComparison } from '../judge/variant-comparison.js'

export type PlanLine =
  { kind?: undefined; suite: string; key: string; plan: CallPlan; announcement: string; refusal?: undefined } | { kind: 'refusal'; suite: string; refusal: DiglineErrorData }

export type ProgressLine =
  | { kind: 'case'; suite: string; case_id: string; verdict: CaseResult['verdict']; earlier: boolean }
  | { kind: 'outcome'; suite: string; outcome: SuiteOutcome }
  | { kind: 'refusal'; suite: string; refusal: DiglineErrorData }
  /** A suite with variants, once its variants are filed: the variant table the launch prints. */
  | { kind: 'variants'; suite: string; table: VariantComparison }

/** One line, one write: lines of suites in other workers never interleave. */
export function appendReport(path: string, line: PlanLine | ProgressLine): void {
  appendFileSync(path, `${JSON.stringify(line)}\n`)
}

/** The whole lines written so far (a line still being written is left for the next read). */
export function readReport<T extends PlanLine | ProgressLine>(path: string): T[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return []
  }
  const whole = text.slice(0, text.lastIndexOf('\n') + 1)
  return whole
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T)
}

/**
 * What a worker reports for one suite, to the files the launch names: its bill or refusal on a
 * plan-only launch, each settled case and the outcome on a run. Without reports it does nothing.
 */
export class SuiteReporter {
  constructor(
    private readonly suite: string,
    private readonly reports: LaunchReports,
  ) {}

  refused(error: unknown): void {
    const path = this.reports.plan ?? this.reports.progress
    if (path !== undefined && isDiglineError(error)) appendReport(path, { kind: 'refusal', suite: this.suite, refusal: error.toData() })
  }

  planned(key: string, plan: CallPlan, announcement: string): void {
    if (this.reports.plan !== undefined) appendReport(this.reports.plan, { suite: this.suite, key, plan, announcement })
  }

  /** The front end's per-case hook, reporting each settled case first. */
  onCase(onCase: OnCase): OnCase {
    const path = this.reports.progress
    if (path === undefined) return onCase
    return (p) => {
      appendReport(path, { kind: 'case', suite: this.suite, case_id: p.result.case_id, verdict: p.result.verdict, earlier: p.index === -1 })
      return onCase(p)
    }
  }

  settled(outcome: Promise<SuiteOutcome>): void {
    const path = this.reports.progress
    if (path === undefined) return
    outcome.then(
      (o) => appendReport(path, { kind: 'outcome', suite: this.suite, outcome: o }),
      (error: unknown) => this.refused(error),
    )
  }
}
