// One sample of a case, as the driver's loop sees it: a step gets the answer (from the response
// cache or a call), checks it, and scores it. The loop in execute.ts runs the step for each sample
// and turns the samples into the case's verdict; a new kind of case (a conversation, an agent's
// tool loop, SPEC §16) brings its own step and leaves the loop alone (ADR 0132).
import type { ErrorCause, SampleResult } from '../document/schema.js'
import type { CachedTargetAnswer } from '../suite/cache-key.js'
import type { EvalCase, ResolvedSuite } from '../suite/types.js'
import type { ToolReplayer } from '../suite/tool-replay.js'
import type { ObservedIdentity } from './observed-identity.js'
import type { CaseSignal } from './case-signal.js'

/** Thrown by a step to error its case: which layer failed, and the sentence the document keeps. */
export class CaseError extends Error {
  constructor(
    readonly layer: ErrorCause,
    message: string,
  ) {
    super(message)
  }
}

/** What a step may use of the case it runs in; one object per case, shared by its samples. */
export interface CaseContext {
  readonly suite: ResolvedSuite
  readonly evalCase: EvalCase
  /** The case's own signal, aborted when the run stops; made when first read (CaseSignal). */
  readonly stop: CaseSignal
  readonly identity: ObservedIdentity
  /** Answers the response cache holds for this case, by sample index: not asked for again. */
  readonly cached: readonly (CachedTargetAnswer | undefined)[] | undefined
  /** Hears every answer the target gave (the response cache keeps it). */
  readonly onAnswer: ((caseId: string, sample: number, answer: CachedTargetAnswer) => Promise<void>) | undefined
  /** The launch's tool replay, when it is on: one per answer asked for, handed to the target as ctx.tools. */
  readonly tools?: ToolReplayer
  /**
   * Calls made for this case, as the budget counts them: each call to the target, and each model
   * call beyond the first that an agent's answer reports in its steps. A step counts each call it makes.
   */
  readonly calls: { count: number }
}

/**
 * One sample, from question to score. Throws CaseError to error the whole case (the remaining
 * samples are not run); anything else it throws is a defect and stops the run.
 */
export type SampleStep = (context: CaseContext, sample: number) => Promise<SampleResult>
