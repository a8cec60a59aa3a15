// `digline run --resume [KEY]`: which pending journal of which suite each launch finishes.
import { NoPendingJournalError } from '../errors.js'
import type { Pending } from '../../store/journal.js'
import type { Store } from '../../store/contract.js'
import { assertNoLiveWriter, raiseRefusal } from '../project/pending-journals.js'
import { assertNotRemoved } from '../lifecycle/removed-runs.js'
import { shardOfLeg, type Shard } from './shard.js'

export interface ResumeChoice {
  /** suite → key, for DIGLINE_RESUME. */
  chosen: Record<string, string>
  /** Pending runs passed over (older ones of a chosen suite), named on stderr. */
  passedOver: Pending[]
}

/** Every pending journal of the tenant, or of one suite: `pick` also names the runs of its variants pick.<variant> (ADR 0415). */
export async function pendingOfTenant(store: Store, tenant: string, suite?: string): Promise<Pending[]> {
  const suites = suite === undefined ? await store.listSuites(tenant) : await suitesNamed(store, tenant, suite)
  const all: Pending[] = []
  for (const s of suites) all.push(...(await store.pending(tenant, s)))
  return suite === undefined ? all : all.filter((p) => p.suite === suite || p.header?.variant?.suite === suite)
}

/** Suite S, and the suites S.<variant> the store holds (which of them are S's variants their journal headers say). */
async function suitesNamed(store: Store, tenant: string, suite: string): Promise<string[]> {
  const variants = (await store.listSuites(tenant)).filter((s) => s.startsWith(`${suite}.`))
  return [suite, ...variants]
}

export async function chooseResume(store: Store, tenant: string, options: { key?: string; suite?: string; shard?: Shard }): Promise<ResumeChoice> {
  const open = (await pendingOfTenant(store, tenant, options.suite)).filter((p) => !p.finished)
  const where = options.suite === undefined ? `tenant ${tenant}` : `suite ${options.suite} of tenant ${tenant}`
  if (options.key !== undefined) {
    const matches = open.filter((p) => p.key === options.key)
    for (const suite of options.suite === undefined ? await suitesOf(store, tenant) : await suitesNamed(store, tenant, options.suite)) {
      await assertNotRemoved(store, tenant, suite, options.key, 'resume')
    }
    if (matches.length === 0)
      throw new NoPendingJournalError(`no pending journal under key ${options.key} in ${where}`, 'Run `digline pending` to see the keys there are.', ['--resume'])
    for (const p of matches) await check(store, tenant, p, options.shard)
    return { chosen: Object.fromEntries(matches.map((p) => [p.suite, p.key])), passedOver: [] }
  }
  if (open.length === 0) throw new NoPendingJournalError(`no pending journal in ${where}: there is nothing to resume`, 'Start a fresh run with `digline run` (or `vitest run`).')
  const chosen: Record<string, string> = {}
  const passedOver: Pending[] = []
  const bySuite = new Map<string, Pending[]>()
  for (const p of open) bySuite.set(p.suite, [...(bySuite.get(p.suite) ?? []), p])
  for (const [suite, runs] of bySuite) {
    const sorted = [...runs].sort((a, b) => a.key.localeCompare(b.key))
    const newest = sorted.pop()!
    await check(store, tenant, newest, options.shard)
    chosen[suite] = newest.key
    passedOver.push(...sorted)
  }
  return { chosen, passedOver }
}

async function check(store: Store, tenant: string, p: Pending, shard: Shard | undefined): Promise<void> {
  if (p.refusal !== undefined) raiseRefusal(p.refusal)
  await assertNotRemoved(store, tenant, p.suite, p.key, 'resume')
  // A shard's resume is held up only by a live writer of that shard: the other shards may still be running.
  assertNoLiveWriter(shard === undefined ? p : { ...p, leases: p.leases.filter((l) => shardOfLeg(l.leg, shard.count) === shard.index) })
}

async function suitesOf(store: Store, tenant: string): Promise<string[]> {
  return store.listSuites(tenant)
}
