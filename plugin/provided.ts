// What the main process hands every worker through project.provide('digline', …).
import type { DiglineErrorData } from '../src/errors/base.js'
import type { SuiteOutcome, CaseLine, VariantComparison } from '../src/host/index.js'
import type { Annotation, CaseTally } from './case-annotations.js'

export type ProvidedDigline =
  | { tenant: string; environment: string; storeRoot: string; projectRoot: string; claims?: string; watch?: boolean; ui?: boolean; refusal?: undefined }
  | { refusal: DiglineErrorData }

/**
 * What a digline test carries back to the main process in its task meta; the main process files `annotations`, or a case's
 * annotations worded from its line and `tally`, onto the test and drops both from the meta (plugin/annotation-filer.ts).
 * A filtered run has no verdict test (the filter leaves it out): its last selected case carries the suite's `outcome`.
 */
export type DiglineTaskMeta = (
  | { kind: 'case'; suite: string; case: CaseLine; outcome?: SuiteOutcome; tally?: CaseTally }
  | { kind: 'suite'; outcome: SuiteOutcome }
  | { kind: 'variants'; table: VariantComparison }
) & { annotations?: Annotation[] }

// Through 'vitest' itself: Vitest 5 ships no @vitest/runner package to augment.
declare module 'vitest' {
  interface ProvidedContext {
    digline: ProvidedDigline
  }
  interface TaskMeta {
    digline?: DiglineTaskMeta
  }
}
