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

export class SuiteNotHeldError extends Error {
  override readonly name = 'SuiteNotHeldError'
}

export function describeMisses(misses: ThresholdJudgement['misses']): string {
  return misses.map((m) => `${m.field} ${formatMeasure(m.field, m.actual)} < required ${formatMeasure(m.field, m.required)}`).join('; ')
}
