// What a run's tokens cost, from the suite's price table. A model is looked up by the id the
// provider reported (observed), else by the declared one; tokens of a model with no price are
// named in `unpriced` rather than guessed.
import type { CaseResult, Cost, JudgeConfig, Observed } from '../document/schema.js'
import type { JsonObject, PriceTable, TokenUsage } from '../suite/types.js'
import { SIMULATED_USER } from '../suite/conversation.js'

export interface Pricing {
  prices: PriceTable
  /** The target's model ids, most specific first. */
  target: readonly string[]
  /** Each judge scorer's model ids, most specific first. */
  judges: Readonly<Record<string, readonly string[]>>
}

/** The ids to price a run's target and judges by, from what the run document holds. */
export function pricingFor(prices: PriceTable, observed: Observed, targetConfig: JsonObject, judgeConfig: JudgeConfig): Pricing {
  const judges: Record<string, string[]> = {}
  for (const scorer of judgeConfig.scorers) {
    const declaredId = declaredModelId(scorer.config.model)
    judges[scorer.name] = ids(observed.judge_models[scorer.name], declaredId)
  }
  // A conversation's simulated user is priced as a judge is (ADR 0311).
  const user = judgeConfig.simulated_user
  if (user !== undefined) judges[SIMULATED_USER] = ids(observed.judge_models[SIMULATED_USER], declaredModelId(user.model))
  return { prices, target: ids(observed.target_model ?? undefined, typeof targetConfig.model === 'string' ? targetConfig.model : undefined), judges }
}

/** A declared model id: the config's `model` as a string, or the `model` of a model adapter's config. */
function declaredModelId(declared: unknown): string | undefined {
  return typeof declared === 'string' ? declared : typeof (declared as JsonObject | undefined)?.model === 'string' ? ((declared as JsonObject).model as string) : undefined
}

export function costOf(results: readonly CaseResult[], pricing: Pricing): Cost {
  const unpriced = new Set<string>()
  const price = (candidates: readonly string[] | undefined, usage: TokenUsage, who: string): number => {
    const id = (candidates ?? []).find((c) => pricing.prices[c] !== undefined)
    if (id === undefined) {
      if (usage.input_tokens + usage.output_tokens > 0) unpriced.add(candidates?.[0] ?? who)
      return 0
    }
    const p = pricing.prices[id]!
    return (usage.input_tokens * p.input + usage.output_tokens * p.output) / 1_000_000
  }
  let target = 0
  let judge = 0
  for (const result of results) {
    for (const sample of result.samples) {
      if (sample.usage !== undefined) target += price(pricing.target, sample.usage, 'the target')
      for (const score of sample.scorers) if (score.usage !== undefined) judge += price(pricing.judges[score.name], score.usage, `judge ${score.name}`)
      if (sample.turns !== undefined) {
        for (const turn of sample.turns) if (turn.role === 'user' && turn.usage !== undefined) judge += price(pricing.judges[SIMULATED_USER], turn.usage, 'the simulated user')
      }
    }
  }
  return { target: round(target), judge: round(judge), total: round(target + judge), unpriced: [...unpriced].sort() }
}

/**
 * What the target's tokens of one case cost (judges left out: the gate on cost watches the system
 * under test); undefined when a sample reported no usage or the target's model has no price.
 */
export function caseTargetCost(result: CaseResult, pricing: Pricing): number | undefined {
  const id = pricing.target.find((c) => pricing.prices[c] !== undefined)
  if (id === undefined || result.samples.length === 0) return undefined
  const p = pricing.prices[id]!
  let sum = 0
  for (const sample of result.samples) {
    if (sample.usage === undefined) return undefined
    sum += (sample.usage.input_tokens * p.input + sample.usage.output_tokens * p.output) / 1_000_000
  }
  return round(sum)
}

/** The results with each judged case's target cost where it is known, which the cost gate compares case by case. */
export function withTargetCosts(results: readonly CaseResult[], pricing: Pricing): CaseResult[] {
  return results.map((r) => {
    const cost = r.verdict === 'error' ? undefined : caseTargetCost(r, pricing)
    return cost === undefined ? r : { ...r, target_cost: cost }
  })
}

function ids(...values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))]
}

/** Nine decimals: far below any price's precision, and the same bytes however the sums were reached. */
function round(value: number): number {
  return Math.round(value * 1e9) / 1e9
}
