// The main-process side of docs/adr/0080: a case's annotations ride to the main process in its
// test's meta, with the task update Vitest sends anyway, instead of one awaited round trip each.
// This reporter runs first, so every reporter after it (verbose, JUnit, blob, --ui) sees them as
// if the test had called annotate(); it then drops them from the meta, which stays as it was. A
// case's test sends only what they are worded from (ADR 0441).
import type { Reporter, TestCase, Vitest } from 'vitest/node'
import { annotatedByDigline, caseAnnotations } from './case-annotations.js'
import './provided.js'

export class AnnotationFiler implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta().digline
    if (meta === undefined) return
    // A case's test carries its line and tally, from which its annotations are worded here (ADR 0441).
    const carried = meta.kind === 'case' && meta.tally !== undefined ? caseAnnotations(meta.case, meta.tally, this.vitest?.config.ui === true) : meta.annotations
    if (meta.kind === 'case') delete meta.tally
    delete meta.annotations
    if (carried === undefined) return
    const task = this.vitest?.state.idMap.get(testCase.id)
    if (task?.type !== 'test' || annotatedByDigline(task.annotations)) return
    // Vitest's list of reporters is not typed as public; an older or newer shape simply gets no live events.
    const all = (this.vitest as unknown as { reporters?: unknown }).reporters
    const others = Array.isArray(all) ? (all as Reporter[]).filter((r) => r !== this) : []
    for (const a of carried) {
      const annotation = { message: a.message, type: a.type }
      task.annotations.push(annotation)
      for (const reporter of others) void reporter.onTestCaseAnnotate?.(testCase, annotation)
    }
  }
}
