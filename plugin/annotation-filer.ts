// The main-process side of docs/adr/0080: a case's annotations ride to the main process in its
// test's meta, with the task update Vitest sends anyway, instead of one awaited round trip each.
// This reporter runs first, so every reporter after it (verbose, JUnit, blob, --ui) sees them as
// if the test had called annotate(); it then drops them from the meta, which stays as it was.
import type { Reporter, TestCase, Vitest } from 'vitest/node'
import { annotatedByDigline } from './case-annotations.js'
import './provided.js'

export class AnnotationFiler implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta().digline
    if (meta?.annotations === undefined) return
    const carried = meta.annotations
    delete meta.annotations
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
