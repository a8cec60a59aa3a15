// The tenant's suites at a glance: how many readable runs each has, its latest run and its baseline.
import { isDiglineError } from '../errors.js'
import type { Store } from '../store/contract.js'

export interface SuiteSummary {
  suite: string
  runs: number
  latest: string | null
  baseline: string | null
  /** Why the baseline cannot be read, when it cannot. */
  baseline_refusal?: string
}

export async function suiteSummaries(store: Store, tenant: string): Promise<SuiteSummary[]> {
  const lines: SuiteSummary[] = []
  for (const suite of await store.listSuites(tenant)) {
    const runs = (await store.listRuns(tenant, suite)).runs
    const line: SuiteSummary = { suite, runs: runs.filter((r) => r.header !== undefined).length, latest: (await store.latestKey(tenant, suite)) ?? null, baseline: null }
    try {
      line.baseline = (await store.readBaseline(tenant, suite))?.promoted_from ?? null
    } catch (error) {
      line.baseline_refusal = isDiglineError(error) ? error.name : 'unreadable'
    }
    lines.push(line)
  }
  return lines
}
