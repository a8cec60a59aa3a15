// What a case's test carries into Vitest's own views (vitest --ui, the verbose, JUnit and TAP
// reporters) as test annotations (docs/adr/0048): its verdict, score and reason, the same text the
// run document holds, so nothing is quoted that the document does not already keep. A failing case
// is a green test (docs/adr/0001); its verdict annotation says FAIL so it does not read as a pass.
// Under `vitest --ui` its test is red as well (docs/adr/0385), and the annotation says that instead.
// A case's test carries only its CaseLine and a tally in its meta; the main process words and files
// the annotations (docs/adr/0080, 0441).
import type { CaseResult, ErrorCause } from '../src/document/schema.js'
import { percent, type CaseLine, type SuiteOutcome } from '../src/host/index.js'
import { printable } from '../src/suite/printable-text.js'

export const ANNOTATION_PREFIX = 'digline.'

export interface Annotation {
  type: string
  message: string
}

/** What a case's annotations are worded from beside its CaseLine: samples passed, samples taken, the error's cause. */
export type CaseTally = [passed: number, samples: number, cause: ErrorCause | null]

export function caseTally(result: CaseResult): CaseTally {
  return [result.passed_samples, result.samples.length, result.error?.cause ?? null]
}

export function samplesLine([passed, samples]: CaseTally): string {
  return `${passed} of ${samples} sample${samples === 1 ? '' : 's'} passed`
}

/** The case's annotations, from its CaseLine (whose reason is the error's message when it errored) and its tally. */
export function caseAnnotations(line: CaseLine, tally: CaseTally, ui = false): Annotation[] {
  const verdict =
    line.verdict === 'pass'
      ? `pass: ${samplesLine(tally)}`
      : line.verdict === 'fail'
        ? ui
          ? `FAIL: ${samplesLine(tally)}; the case failed, and its test is red under --ui only (the "digline verdict" test says whether the suite holds, and the exit code follows it)`
          : `FAIL: ${samplesLine(tally)}; the case failed, and its test stays green because a failing case is a measurement (the "digline verdict" test fails when the suite does not hold)`
        : `ERROR (cause: ${tally[2] ?? 'unknown'}): the case could not be judged`
  const out: Annotation[] = [{ type: `${ANNOTATION_PREFIX}verdict`, message: verdict }]
  if (line.score !== null) out.push({ type: `${ANNOTATION_PREFIX}score`, message: String(line.score) })
  if (line.reason !== null && line.reason !== '') out.push({ type: `${ANNOTATION_PREFIX}reason`, message: printable(line.reason) })
  return out
}

export function suiteAnnotations(outcome: SuiteOutcome): Annotation[] {
  const a = outcome.aggregates
  const interval = a.pass_rate_ci95 === null ? '' : ` [${percent(a.pass_rate_ci95.low)}, ${percent(a.pass_rate_ci95.high)}]`
  const errored = a.errored > 0 ? `; ${a.errored} errored case(s), so the run could not be judged` : ''
  const failing = a.failed > 0 ? `; ${a.failed} failing case(s)${outcome.status === 'held' ? ', allowed by the thresholds' : ''}` : ''
  return [
    {
      type: `${ANNOTATION_PREFIX}suite`,
      message: `${outcome.status}: pass rate ${percent(a.pass_rate)}${interval} over ${a.cases} case(s)${failing}${errored}; run ${outcome.key}`,
    },
  ]
}

/** Whether a test already carries digline's annotations (a retried test, or a `--merge-reports` replay). */
export function annotatedByDigline(annotations: readonly { type: string }[]): boolean {
  return annotations.some((a) => a.type.startsWith(ANNOTATION_PREFIX))
}
