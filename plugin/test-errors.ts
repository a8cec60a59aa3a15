// The errors digline's own tests throw, so Vitest's red marks match the exit code.
import type { ThresholdJudgement } from '../src/driver/index.js'
import { formatMeasure } from '../src/host/index.js'
import { printable } from '../src/suite/printable-text.js'

export class CaseErroredError extends Error {
  override readonly name = 'CaseErroredError'
  constructor(suite: string, caseId: string, cause: string, message: string) {
    super(`${suite} › ${caseId} errored (cause: ${cause}): ${printable(message)}`)
  }
}

/**
 * Thrown by a failing case's test only while `vitest --ui` is on, so the UI marks the case red and shows
 * why (ADR 0385). The reporter leaves these out of the exit code, which the suite's gate decides. The
 * brand is an own data property: it survives Vitest's worker → main serialization, and a user's error
 * of the same name does not carry it.
 */
export class CaseFailedError extends Error {
  override readonly name = 'CaseFailedError'
  readonly diglineCaseFailed = true
  constructor(suite: string, caseId: string, samples: string, reason: string | null) {
    super(
      `${suite} › ${caseId} failed (${samples})${reason === null || reason === '' ? '' : `: ${printable(reason)}`}; the "digline verdict" test says whether the suite holds, and the exit code follows it`,
    )
  }
}

/** A CaseFailedError, as a real instance or as the plain copy the main process receives. */
export function isCaseFailed(error: unknown): boolean {
  return error !== null && typeof error === 'object' && Object.hasOwn(error, 'diglineCaseFailed') && (error as { diglineCaseFailed?: unknown }).diglineCaseFailed === true
}

export class SuiteNotHeldError extends Error {
  override readonly name = 'SuiteNotHeldError'
}

export function describeMisses(misses: ThresholdJudgement['misses']): string {
  return misses.map((m) => `${m.field} ${formatMeasure(m.field, m.actual)} < required ${formatMeasure(m.field, m.required)}`).join('; ')
}
