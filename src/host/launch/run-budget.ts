// A launch's budget (SPEC §14): the suite's `budget`, with DIGLINE_BUDGET_USD (per launch) in place
// of its usd. Before the first call the bill is held against it: a bill already over it is refused
// unless the launch accepts a run that stops at the budget (--over-budget, DIGLINE_OVER_BUDGET=1).
// The budget is not part of the run (not in config_hash, not in the journal header), so a resume may
// raise it (docs/adr/0070).
import { BudgetReachedError, OverBudgetError } from './errors.js'
import { InvalidOptionsError } from '../../suite/errors.js'
import type { BudgetStop } from '../../driver/budget.js'
import type { Budget, ResolvedSuite } from '../../suite/types.js'
import type { CallPlan, Prepared } from './prepare-run.js'
import { formatCost, type UsageEstimate } from './usage-estimate.js'

export const BUDGET_USD_ENV = 'DIGLINE_BUDGET_USD'
export const OVER_BUDGET_ENV = 'DIGLINE_OVER_BUDGET'

export function launchBudget(suite: ResolvedSuite, env: NodeJS.ProcessEnv): Budget | undefined {
  const raw = env[BUDGET_USD_ENV]
  if (raw === undefined || raw.trim() === '') return suite.budget
  const usd = Number(raw)
  if (!Number.isFinite(usd) || usd <= 0)
    throw new InvalidOptionsError(
      `${BUDGET_USD_ENV}=${JSON.stringify(raw)} was refused: it is a positive amount, such as 2.50`,
      `Set ${BUDGET_USD_ENV} to a positive number, or unset it.`,
      [BUDGET_USD_ENV],
    )
  if (suite.prices === undefined)
    throw new InvalidOptionsError(
      `${BUDGET_USD_ENV} was refused for suite ${suite.name}: the suite declares no prices, so what its calls cost cannot be counted; nothing was called`,
      `Declare prices in suite ${suite.name} (docs/guide.md#budget), or cap it by calls with budget: { calls } and unset ${BUDGET_USD_ENV}.`,
      [BUDGET_USD_ENV],
    )
  return { ...suite.budget, usd }
}

export function describeBudget(budget: Budget): string {
  const parts: string[] = []
  if (budget.usd !== undefined) parts.push(`$${formatCost(budget.usd)}`)
  if (budget.calls !== undefined) parts.push(`${budget.calls} call${budget.calls === 1 ? '' : 's'}`)
  return parts.join(' or ')
}

/**
 * The announcement's budget clause; refuses (before any call) a bill that already exceeds the
 * budget, unless the launch accepts that the run stops at the budget.
 */
export function holdBillAgainstBudget(prepared: Prepared, budget: Budget, estimate: UsageEstimate | undefined, env: NodeJS.ProcessEnv): string {
  const { plan } = prepared
  const over: string[] = []
  if (budget.calls !== undefined && plan.calls > budget.calls) over.push(`${plan.calls} calls exceed budget.calls ${budget.calls}`)
  const cost = estimate?.costPerCall === undefined ? undefined : estimate.costPerCall * plan.calls
  if (budget.usd !== undefined && cost !== undefined && cost > budget.usd) over.push(`an estimated cost of $${formatCost(cost)} exceeds $${formatCost(budget.usd)}`)
  const estimated = budget.usd === undefined ? '' : cost === undefined ? ', no cost estimate yet (no earlier run priced its tokens)' : `, estimated cost $${formatCost(cost)}`
  if (over.length === 0) return `budget ${describeBudget(budget)}${estimated}`
  if (env[OVER_BUDGET_ENV] === '1') return `budget ${describeBudget(budget)}${estimated}: over budget, so the run stops when it reaches it (--over-budget)`
  throw new OverBudgetError(
    `suite ${prepared.suite.name} was refused: ${over.join(', and ')} (budget ${describeBudget(budget)}); nothing was called`,
    `raise the suite's budget (or ${BUDGET_USD_ENV}), or run it anyway with \`digline run --over-budget${plan.resumed ? ` --resume ${prepared.key}` : ''}\` (${OVER_BUDGET_ENV}=1 for vitest run): the run stops at the budget and \`digline run --resume ${plan.resumed ? prepared.key : 'KEY'}\` finishes it`,
    ['budget'],
  )
}

export function budgetReached(prepared: Prepared, plan: CallPlan, stop: BudgetStop): BudgetReachedError {
  const { spent } = stop
  const cost = prepared.suite.prices === undefined ? '' : ` costing $${formatCost(spent.usd)}`
  const whole = prepared.only === undefined
  return new BudgetReachedError(
    `run ${prepared.key} of suite ${prepared.suite.name} reached its budget (${describeBudget(stop.budget)}): ${spent.calls} call${spent.calls === 1 ? '' : 's'}${cost} spent by this launch; no new call started, the calls in flight finished${whole ? ' and were journaled' : ''}, and ${stop.unjudged} of ${plan.toCall} case(s) were not judged${whole ? ' (they stay pending)' : ''}`,
    whole
      ? `digline run --resume ${prepared.key} (with a larger budget in the suite or ${BUDGET_USD_ENV})`
      : 'Run the suite again with a larger budget (a filtered run keeps no journal).',
  )
}
