// What the driver asks of a run's spans (spans.ts decides whether they are OpenTelemetry's or none).
import type { CaseResult, SampleResult } from '../document/schema.js'
import type { EvalCase, ResolvedSuite } from '../suite/types.js'

/** A case's span, from its first sample to its verdict. */
export interface CaseSpan {
  /** Runs one sample inside its span (the span is the active context, so a target's own spans nest in it). */
  sample(index: number, run: () => Promise<SampleResult>): Promise<SampleResult>
  /** Its verdict; undefined when the run stopped before it had one. */
  end(result: CaseResult | undefined): void
}

export interface RunSpans {
  startCase(suite: ResolvedSuite, evalCase: EvalCase): CaseSpan
}
