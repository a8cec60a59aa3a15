// A suite that regresses alone but is held by the launch's family-wise budget (Holm, ADR 0242) holds:
// its worker failed the "digline verdict" test before the launch could decide, since the decision
// needs every suite's gates. When the launch ends, before Vitest's own reporters sum it up, this
// reporter makes that test pass again and says why, so the results agree with the exit code (ADR 0418).
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import type { SerializedError } from 'vitest'
import { familyWise, type FamilyWise } from '../src/host/index.js'
import { tallyLaunch } from './launch-tally.js'
import './provided.js'

/** Why the test passes, as its annotation says. */
export const HELD_BY_FAMILY_NOTE = "held: the suite regressed alone, but not under the launch's family-wise budget (Holm), so it does not gate; its verdict says which gate"

export class HeldVerdicts implements Reporter {
  private vitest: Vitest | undefined

  constructor(private readonly method: FamilyWise) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    if (this.method !== 'holm') return
    const { outcomes, carriers } = tallyLaunch(testModules, unhandledErrors)
    const decided = familyWise(outcomes, this.method).outcomes
    carriers.forEach((carrier, i) => {
      if (!carrier.verdictTest || outcomes[i]!.status !== 'regressed' || decided[i]!.status !== 'held') return
      const task = this.vitest?.state.idMap.get(carrier.id)
      if (task?.type !== 'test' || task.result?.state !== 'fail') return
      task.result.state = 'pass'
      delete task.result.errors
      task.annotations.push({ message: HELD_BY_FAMILY_NOTE, type: 'notice' })
    })
  }
}
