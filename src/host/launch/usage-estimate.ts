// The bill's estimate: the tokens per call (and the cost per call) of the suite's latest run that
// reported usage, times the calls this launch will make. A guess from history, never a promise;
// nothing here may stop a run.
import type { Aggregates } from '../../document/schema.js'
import type { ListedRun, Store } from '../../store/contract.js'

export interface UsageEstimate {
  /** The run the figures come from. */
  key: string
  /** Target tokens per call in that run. */
  target: { input: number; output: number }
  /** Judge tokens per target call in that run (every judge of a sample together). */
  judge: { input: number; output: number } | undefined
  /** What one call cost in that run (target and judges), when it priced its tokens. */
  costPerCall: number | undefined
}

/** Only the latest few runs are looked at: a suite whose target reports no usage costs no more than this. */
const LOOK_BACK = 5

export async function estimateFromHistory(store: Store, tenant: string, suite: string): Promise<UsageEstimate | undefined> {
  try {
    const listing = await store.listRuns(tenant, suite)
    const readable = listing.runs.filter((r): r is Extract<ListedRun, { refusal?: undefined }> => r.header !== undefined)
    const recent = readable
      .filter((r) => r.header.rejudged_from === undefined)
      .slice(-LOOK_BACK)
      .reverse()
    for (const run of recent) {
      const aggregates = run.aggregates ?? (await store.readRun(tenant, suite, run.key)).aggregates
      const estimate = perCall(run.key, aggregates)
      if (estimate !== undefined) return estimate
    }
  } catch {
    return undefined
  }
  return undefined
}

function perCall(key: string, a: Aggregates): UsageEstimate | undefined {
  const calls = a.samples_taken ?? (a.passed + a.failed) * a.samples_per_case
  if (a.usage === undefined || calls === 0) return undefined
  return {
    key,
    target: { input: a.usage.input_tokens / calls, output: a.usage.output_tokens / calls },
    judge: a.judge_usage === undefined ? undefined : { input: a.judge_usage.input_tokens / calls, output: a.judge_usage.output_tokens / calls },
    costPerCall: a.cost === undefined || a.cost.unpriced.length > 0 ? undefined : a.cost.total / calls,
  }
}

/** The clause the announcement appends, for `calls` calls. */
export function describeEstimate(calls: number, e: UsageEstimate): string {
  const n = (x: number) => Math.round(x * calls).toLocaleString('en-US')
  let text = `estimated from run ${e.key}: ~${n(e.target.input)} input + ${n(e.target.output)} output tokens to the target`
  if (e.judge !== undefined) text += `, ~${n(e.judge.input)} + ${n(e.judge.output)} to the judges`
  if (e.costPerCall !== undefined) text += `, cost ~${formatCost(e.costPerCall * calls)}`
  return text
}

export function formatCost(value: number): string {
  if (value === 0) return '0'
  return value >= 1 ? value.toFixed(2) : Number(value.toPrecision(2)).toString()
}
