// The budget a launch may spend (SPEC §14): calls to the target, and money priced from the tokens the
// target and judges report. A case is the unit the journal keeps, so the budget is checked before a
// case starts: its calls are reserved then (a calls budget is never passed), and a case that started
// asks all its samples, so no answer is paid for and then thrown away. Once the budget is reached no
// new case starts; the cases in flight finish and are journaled.
import type { CaseResult, Observed } from '../document/schema.js'
import { judgeConfigOf } from '../suite/hashing.js'
import type { Budget, ResolvedSuite } from '../suite/types.js'
import { costOf, pricingFor } from './cost.js'

export interface Spend {
  /** Calls to the target made by this launch. */
  calls: number
  /** What this launch's calls (target and judges) cost, from the suite's prices. */
  usd: number
}

/** Thrown by execute once the budget stopped it: the cases not started stay unjudged. */
export class BudgetStop extends Error {
  constructor(
    readonly budget: Budget,
    readonly spent: Spend,
    /** Cases of this launch left without a verdict. */
    readonly unjudged: number,
  ) {
    super('the budget was reached')
  }
}

export class BudgetMeter {
  private reservedCalls = 0
  private usd = 0
  private readonly priceOf: ((result: CaseResult, observed: Observed) => number) | undefined

  constructor(
    readonly budget: Budget,
    suite: ResolvedSuite,
  ) {
    const { prices } = suite
    if (budget.usd !== undefined && prices !== undefined) {
      const judgeConfig = judgeConfigOf(suite.scorers, suite.conversation?.user)
      // Answers from the cache cost this launch nothing.
      this.priceOf = (result, observed) =>
        costOf([{ ...result, samples: result.samples.filter((s) => s.cached !== true) }], pricingFor(prices, observed, suite.targetConfig, judgeConfig)).total
    }
  }

  /** Reserves a case's calls; false (and nothing reserved) when starting them would pass the budget. */
  admit(calls: number): boolean {
    if (calls === 0) return true
    if (this.budget.calls !== undefined && this.reservedCalls + calls > this.budget.calls) return false
    if (this.budget.usd !== undefined && this.usd >= this.budget.usd) return false
    this.reservedCalls += calls
    return true
  }

  /** A case finished: it made `made` of the `reserved` calls, and its result is priced. */
  settle(reserved: number, made: number, result: CaseResult, observed: Observed): void {
    this.reservedCalls -= reserved - made
    if (this.priceOf !== undefined) this.usd += this.priceOf(result, observed)
  }

  get spent(): Spend {
    return { calls: this.reservedCalls, usd: Math.round(this.usd * 1e9) / 1e9 }
  }
}
