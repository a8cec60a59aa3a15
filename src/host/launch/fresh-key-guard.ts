// Before a fresh run's first call: the key it would write under must be free. A key is taken by a
// pending journal (a stopped launch with the same created_at), by the run under the suite's
// baseline, or by any run document already written (docs/adr/0016-a-fresh-run-never-overwrites.md).
import { BaselineRunOverwriteError, InvalidShardError, PendingRunUnderKeyError, RunExistsError } from './errors.js'
import { isRefusal } from '../../errors/recognise.js'
import { RunNotFoundError, RunRemovedError } from '../../store/errors.js'
import type { Store } from '../../store/contract.js'
import { assertNoLiveWriter, raiseRefusal } from '../project/pending-journals.js'
import type { Pending } from '../../store/journal.js'
import { readShardLabel, shardLabel, shardOfLeg, type Shard } from './shard.js'
import type { BaselineDocument } from '../../document/baseline.js'
import { describeVariantIdentity, sameVariantIdentity, variantNameCollision, type VariantIdentity } from '../../suite/variants.js'

const variantOf = (v: VariantIdentity): VariantIdentity => (v === undefined ? undefined : { suite: v.suite, name: v.name })

const OTHER_CREATED_AT = 'run again with another DIGLINE_CREATED_AT (or without it, so the run takes the time it starts)'

export async function assertFreshKeyFree(store: Store, tenant: string, suite: string, key: string, shard?: Shard, variant?: VariantIdentity): Promise<void> {
  const pending = (await store.pending(tenant, suite)).find((p) => p.key === key && !p.finished)
  // The other shards of a sharded run journal under the same key: only this shard's own legs take it.
  if (pending !== undefined && shard !== undefined) assertShardFree(pending, shard)
  else if (pending !== undefined) {
    assertNoLiveWriter(pending)
    throw new PendingRunUnderKeyError(
      `refused a fresh run of suite ${suite} under key ${key}: a launch with the same created_at was stopped and left a pending journal under that key (${pending.done.size} case(s) journaled); nothing was called`,
      `digline run --resume ${key} (finishes that run), or ${OTHER_CREATED_AT}`,
      ['DIGLINE_CREATED_AT'],
    )
  }
  let baseline: BaselineDocument | undefined
  try {
    baseline = await store.readBaseline(tenant, suite)
  } catch {
    baseline = undefined // an unreadable baseline is named by the comparison after the run
  }
  const promotedFrom = baseline?.promoted_from
  // A suite named pick.small and variant small of suite pick share one name (ADR 0416).
  if (baseline !== undefined && !sameVariantIdentity(variantOf(variant), baseline.variant)) {
    throw variantNameCollision(
      suite,
      `refused a fresh run of suite ${suite}`,
      `this launch declares it as ${describeVariantIdentity(variantOf(variant))}`,
      `its baseline (run ${baseline.promoted_from}) was filed as ${describeVariantIdentity(baseline.variant)}`,
      'nothing was called',
    )
  }
  if (promotedFrom === key) {
    throw new BaselineRunOverwriteError(
      `refused a fresh run of suite ${suite} under key ${key}: that is the run the suite's baseline was promoted from, and it is never overwritten; nothing was called`,
      `${OTHER_CREATED_AT[0]!.toUpperCase()}${OTHER_CREATED_AT.slice(1)}`,
      ['DIGLINE_CREATED_AT'],
    )
  }
  if (await runExists(store, tenant, suite, key)) {
    throw new RunExistsError(
      `refused a fresh run of suite ${suite} under key ${key}: run ${key} is already written, and a run is never overwritten; nothing was called`,
      `${OTHER_CREATED_AT[0]!.toUpperCase()}${OTHER_CREATED_AT.slice(1)}; or \`digline delete --suite ${suite} --run ${key}\` first`,
      ['DIGLINE_CREATED_AT'],
    )
  }
}

async function runExists(store: Store, tenant: string, suite: string, key: string): Promise<boolean> {
  try {
    await store.readRun(tenant, suite, key)
    return true
  } catch (error) {
    if (error instanceof RunNotFoundError) return false
    // A removed key, or a store that cannot be read, says so under its own name.
    if (error instanceof RunRemovedError || !isRefusal(error)) throw error
    return true // a file is there, though not a readable run
  }
}

function assertShardFree(pending: Pending, shard: Shard): void {
  const started = readShardLabel(pending.header?.shard)
  const label = shardLabel(shard)
  if (pending.refusal !== undefined) raiseRefusal(pending.refusal)
  if (started !== undefined && started.count !== shard.count) {
    throw new InvalidShardError(
      `refused shard ${label} of run ${pending.key} (suite ${pending.suite}): the run's other shards were started as shards of ${started.count}; nothing was called`,
      `Start every shard of a run with the same N (--shard i/${started.count}), or run with another DIGLINE_CREATED_AT`,
      ['DIGLINE_SHARD'],
    )
  }
  const own = started === undefined ? pending.legs : pending.legs.filter((leg) => shardOfLeg(leg, shard.count) === shard.index)
  if (own.length === 0) return
  assertNoLiveWriter({ ...pending, leases: pending.leases.filter((l) => own.includes(l.leg)) })
  throw new PendingRunUnderKeyError(
    started === undefined
      ? `refused shard ${label} of run ${pending.key} (suite ${pending.suite}): a launch with the same created_at that was not sharded left a pending journal under that key; nothing was called`
      : `refused a fresh start of shard ${label} of run ${pending.key} (suite ${pending.suite}): that shard already journaled ${pending.done.size} case(s) of the run and was stopped; nothing was called`,
    started === undefined ? `digline run --resume ${pending.key}, or ${OTHER_CREATED_AT}` : `digline run --resume ${pending.key} --shard ${label} (finishes that shard)`,
    ['DIGLINE_CREATED_AT'],
  )
}
