// What `digline list` says about a tenant's suites: the live ones with their latest run and
// baseline, and, apart, the retired ones with when they were retired (SPEC §7, §10).
import { isDiglineError } from '../../errors/base.js'
import type { Store } from '../../store/contract.js'

export interface SuiteSummary {
  suite: string
  runs: number
  latest: string | null
  baseline: string | null
  /** Why the baseline cannot be read, when it cannot. */
  baseline_refusal?: string
}

export interface RetiredSuiteSummary extends SuiteSummary {
  retired_at: string
}

async function summaryOf(store: Store, tenant: string, suite: string): Promise<SuiteSummary> {
  const runs = (await store.listRuns(tenant, suite)).runs
  const line: SuiteSummary = { suite, runs: runs.filter((r) => r.header !== undefined).length, latest: (await store.latestKey(tenant, suite)) ?? null, baseline: null }
  try {
    line.baseline = (await store.readBaseline(tenant, suite))?.promoted_from ?? null
  } catch (error) {
    line.baseline_refusal = isDiglineError(error) ? error.name : 'unreadable'
  }
  return line
}

/** The tenant's suites that hold runs or journals, retired ones left out. */
export async function liveSuiteSummaries(store: Store, tenant: string): Promise<SuiteSummary[]> {
  const retired = new Set((await store.retiredSuites(tenant)).map((r) => r.suite))
  const out: SuiteSummary[] = []
  for (const suite of await store.listSuites(tenant)) if (!retired.has(suite)) out.push(await summaryOf(store, tenant, suite))
  return out
}

/** The tenant's retired suites, by name, each with what it keeps. */
export async function retiredSuiteSummaries(store: Store, tenant: string): Promise<RetiredSuiteSummary[]> {
  const out: RetiredSuiteSummary[] = []
  for (const { suite, retired_at } of await store.retiredSuites(tenant)) out.push({ ...(await summaryOf(store, tenant, suite)), retired_at })
  return out
}
