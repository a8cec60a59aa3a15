// What the workers of a launch report to the front end that launched it, one JSON line each in the
// files the launch reports name (launch-directive.ts): a suite's announced bill or the refusal that
// stopped it before any call, each case as it settles, and the suite's outcome.
import { appendFileSync, readFileSync } from 'node:fs'
import type { DiglineErrorData } from '../../errors/base.js'
import type { CaseResult } from '../../document/schema.js'
import type { CallPlan } from './prepare-run.js'
import type { SuiteOutcome } from '../judge/suite-outcome.js'

export type PlanLine =
  { kind?: undefined; suite: string; key: string; plan: CallPlan; announcement: string; refusal?: undefined } | { kind: 'refusal'; suite: string; refusal: DiglineErrorData }

export type ProgressLine =
  | { kind: 'case'; suite: string; case_id: string; verdict: CaseResult['verdict']; earlier: boolean }
  | { kind: 'outcome'; suite: string; outcome: SuiteOutcome }
  | { kind: 'refusal'; suite: string; refusal: DiglineErrorData }

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
