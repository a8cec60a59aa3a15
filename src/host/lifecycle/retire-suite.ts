// `digline retire`: the soft delete of a suite (SPEC §10, seed 003, docs/adr/0045). The suite's
// definition is hidden and takes nothing new; its history (runs, baseline, register lines, removal
// records) is kept as it was. Retiring twice changes nothing and says when the first one was.
import { isRefusal } from '../../errors/recognise.js'
import type { Store, SuiteRetirement } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'

export interface RetiredSuite {
  tenant: string
  retirement: SuiteRetirement
  /** True when the suite was retired before this call: nothing was written. */
  already: boolean
  /** Readable runs kept under the suite. */
  runs: number
  /** The key the baseline was promoted from, kept as it is; null when there is none. */
  baseline: string | null
  /** Why the baseline cannot be read, when it cannot: it is kept as it is, and does not stop the retirement. */
  baselineRefusal?: string
  /** Journals of the suite left pending (their writers are not live); a resume of them is refused from now on. */
  pending: string[]
}

export async function retireSuite(store: Store, tenant: string, suite: string): Promise<RetiredSuite> {
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  const before = await store.retirementOf(tenant, suite)
  const journals = (await store.pending(tenant, suite)).filter((p) => !p.finished)
  // A run still being written is refused first, as the delete refuses it: retiring does not interrupt a live run.
  if (before === undefined && journals.length > 0) {
    // imported here, so that the wording of a retirement stays light behind the host's door (ADR 0420)
    const { assertNoLiveWriter } = await import('../project/pending-journals.js')
    for (const p of journals) assertNoLiveWriter(p)
  }
  let baseline: string | null = null
  let baselineRefusal: string | undefined
  try {
    baseline = (await store.readBaseline(tenant, suite))?.promoted_from ?? null
  } catch (error) {
    if (!isRefusal(error)) throw error
    baselineRefusal = (error as Error).name
  }
  const runs = (await store.listRuns(tenant, suite)).runs.filter((r) => r.refusal === undefined).length
  const retirement = before ?? (await store.retireSuite(tenant, suite))
  return { tenant, retirement, already: before !== undefined, runs, baseline, ...(baselineRefusal === undefined ? {} : { baselineRefusal }), pending: journals.map((p) => p.key) }
}

export function describeRetirement(retired: RetiredSuite): string[] {
  const { tenant, retirement, runs, baseline, baselineRefusal, pending } = retired
  const { suite, retired_at } = retirement
  if (retired.already) return [`Suite ${suite} of tenant ${tenant} was already retired at ${retired_at}; nothing was changed.`]
  const kept = [
    `${runs} run(s)`,
    baselineRefusal !== undefined ? `its baseline (which cannot be read: ${baselineRefusal})` : baseline === null ? 'no baseline' : `its baseline (${baseline})`,
    'its register lines',
    'its removal records',
  ]
  const lines = [
    `Retired suite ${suite} of tenant ${tenant} at ${retired_at}: it is hidden from \`digline list\`, and a new run, a resume, a comparison, a promotion or an import of it is refused from now on.`,
    `Kept as they were: ${kept.join(', ')}. \`digline list --retired\` shows it; \`digline show\` and \`digline export\` still read its runs.`,
  ]
  if (pending.length > 0) lines.push(`Left pending (a resume is refused; \`digline delete --suite ${suite} --run KEY\` removes one): ${pending.join(', ')}.`)
  return lines
}
