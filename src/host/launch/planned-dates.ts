// A fresh plan names the keys its runs would file under, and a key is the run's created_at and its
// config: so the run acknowledged with a plan takes that plan's created_at, and files under the keys
// the plan named (docs/adr/0210-an-acknowledged-run-is-dated-by-its-plan.md).
import { createdAtNow } from '../../suite/keys.js'
import type { LaunchBill } from './acknowledged-launch.js'
import type { PlannedLaunch } from './plan-launch.js'

interface DatedPlan {
  createdAt: string
  /** suite → the calls its plan announced; a suite leaves once a run has taken the date. */
  calls: Map<string, number>
  /** No suite has left yet: a run of every suite may still take the date. */
  whole: boolean
}

/** The newest fresh plan of one server, and the created_at its runs take: each suite's once. */
export class PlannedDates {
  private plan: DatedPlan | undefined

  /** The created_at a fresh plan runs under, or undefined when the environment fixes it (DIGLINE_CREATED_AT). */
  dateOfPlan(env: NodeJS.ProcessEnv): string | undefined {
    return env.DIGLINE_CREATED_AT === undefined || env.DIGLINE_CREATED_AT === '' ? createdAtNow() : undefined
  }

  /** What a fresh plan of `scope` (a suite, or undefined for every suite) announced under `createdAt`: the run acknowledged with it takes that date. */
  remember(createdAt: string, scope: string | undefined, bill: LaunchBill): void {
    this.plan = { createdAt, calls: new Map(bill.suites.map((s) => [s.suite, s.plan.calls])), whole: scope === undefined }
  }

  /**
   * The created_at of the plan a fresh run of `scope` acknowledges with `acknowledgedCalls`, or
   * undefined when it acknowledges no plan of this server (the run then takes the time it starts).
   * Taken once: a second run of the same suites would find its key written.
   */
  take(scope: string | undefined, acknowledgedCalls: number): string | undefined {
    const plan = this.plan
    if (plan === undefined) return undefined
    const suites = scope === undefined ? (plan.whole ? [...plan.calls.keys()] : []) : plan.calls.has(scope) ? [scope] : []
    if (suites.length === 0) return undefined
    if (suites.reduce((sum, s) => sum + plan.calls.get(s)!, 0) !== acknowledgedCalls) return undefined
    for (const s of suites) plan.calls.delete(s)
    plan.whole = false
    if (plan.calls.size === 0) this.plan = undefined
    return plan.createdAt
  }
}

/** The launch with its runs dated `createdAt` (every suite of it), as DIGLINE_CREATED_AT would. */
export function datedLaunch(launch: PlannedLaunch, createdAt: string | undefined): PlannedLaunch {
  return createdAt === undefined ? launch : { ...launch, env: { ...launch.env, DIGLINE_CREATED_AT: createdAt } }
}
