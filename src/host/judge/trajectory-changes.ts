// Which shared cases took another trajectory than in the baseline (SPEC §16, issue 26 item 6): the
// tools each sample called, in order, differ. Tool names are kept whether or not answers are
// recorded (ADR 0270), so a baseline, which holds no responses, can still be compared.
import type { CaseResult } from '../../document/schema.js'
import { sampleStepsOf } from '../../suite/turns.js'

/** The tools each sample called, in order; undefined when a sample reported no steps. */
function trajectoryOf(result: CaseResult): string | undefined {
  const samples: string[][] = []
  for (const sample of result.samples) {
    const steps = sampleStepsOf(sample)
    if (steps === undefined) return undefined
    samples.push(steps.flatMap((s) => (s.type === 'tool' ? [s.name] : [])))
  }
  return samples.length === 0 ? undefined : JSON.stringify(samples)
}

/** The ids of the shared cases whose tool calls (names, in order, per sample) changed; cases either run did not trace are left out. */
export function changedTrajectories(pairs: readonly [CaseResult, CaseResult][]): string[] {
  const changed: string[] = []
  for (const [before, after] of pairs) {
    const b = trajectoryOf(before)
    const r = trajectoryOf(after)
    if (b !== undefined && r !== undefined && b !== r) changed.push(after.case_id)
  }
  return changed
}
