// The errors digline's own tests throw, so Vitest's red marks match the exit code.
import type { ThresholdJudgement } from '../src/driver/index.js'

export class CaseErroredError extends Error {
  override readonly name = 'CaseErroredError'
  constructor(suite: string, caseId: string, cause: string, message: string) {
    super(`${suite} › ${caseId} errored (cause: ${cause}): ${message}`)
  }
}

export class SuiteNotHeldError extends Error {
  override readonly name = 'SuiteNotHeldError'
}

const percent = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`)

export function describeMisses(misses: ThresholdJudgement['misses']): string {
  return misses.map((m) => `${m.field} ${percent(m.actual)} < required ${percent(m.required)}`).join('; ')
}
