// The check every use case that would add to a suite makes first (SPEC §10): a retired suite is
// still read (show, list --suite, export, delete), but nothing new is measured, judged or filed under it.
import { SuiteRetiredError } from './errors.js'
import type { Store, SuiteRetirement } from '../../store/contract.js'

export function suiteRetiredError(tenant: string, retirement: SuiteRetirement, refused: string): SuiteRetiredError {
  const { suite, retired_at } = retirement
  return new SuiteRetiredError(
    `refused to ${refused}: suite ${suite} of tenant ${tenant} was retired at ${retired_at} (digline retire), and a retired suite takes no new run, comparison, promotion or import; nothing was changed`,
    `remove suite ${suite} from its Vitest file, or declare it under a new name to measure it again (a retired suite is never restored); \`digline list --suite ${suite}\` shows its runs, which stay readable`,
    ['--suite'],
  )
}

/** Refuses (SuiteRetiredError) when the suite is retired; `refused` completes "refused to …". */
export async function assertNotRetired(store: Pick<Store, 'retirementOf'>, tenant: string, suite: string, refused: string): Promise<void> {
  const retirement = await store.retirementOf(tenant, suite)
  if (retirement !== undefined) throw suiteRetiredError(tenant, retirement, refused)
}
