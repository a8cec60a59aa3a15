// Promotion: a run becomes its suite's committed baseline, and the register says so (ADR 0009).
// The conditions are checked here first, so a refusal names the most useful next step; the swap
// itself is the store's compare-and-swap (Store.promote), which refuses again, naming the current
// baseline, when another promotion landed since (docs/adr/0027): the register never forks.
import { baselineOf, type RegisterEntry } from '../../document/baseline.js'
import type { RunDocument } from '../../document/schema.js'
import { CachedRunNotPromotableError, ConfigHashMismatchError, ErroredRunNotPromotableError, ReplayNotPromotableError, SliceNotPromotableError } from './errors.js'
import { describeSliceTags } from '../../suite/slice.js'
import { ReplacingMismatchError, ReplacingRequiredError } from '../../store/errors.js'
import { SuiteNotDeclaredError } from '../errors.js'
import type { Store } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { createdAtNow } from '../../suite/keys.js'
import { assertNotRemoved } from './removed-runs.js'
import { assertNotRetired } from './retired-suites.js'
import { describeVariantIdentity, sameVariantIdentity, variantNameCollision } from '../../suite/variants.js'

export interface PromoteRequest {
  store: Store
  tenant: string
  suite: string
  key: string
  /** The key of the baseline being replaced, as the person promoting believes it to be. */
  replacing: string | undefined
  /** The suite's config_hash as its file declares it now; undefined when no file declares it. */
  currentConfigHash: () => Promise<string | undefined>
  /** ISO-8601 UTC with microseconds, like created_at (default: now). */
  now?: () => string
}

export interface Promotion {
  /**
   * promoted: the baseline was written and the register line appended. already: KEY was the
   * baseline and the register says so; nothing was written. completed: KEY was the baseline but an
   * interrupted promotion never appended its register line; the line was appended now.
   */
  outcome: 'promoted' | 'already' | 'completed'
  tenant: string
  suite: string
  key: string
  replaced: string | null
  entry: RegisterEntry | undefined
  /** For messages: where a person finds the baseline and the register. */
  baselineLocation: string
  registerLocation: string
  /** Whether the two are files to commit (the file store) or rows the team store already shares. */
  committedByGit: boolean
}

function promoteCommand(suite: string, key: string, replacing?: string): string {
  return `digline promote --suite ${suite} --run ${key}${replacing === undefined ? '' : ` --replacing ${replacing}`}`
}

function registerEntryOf(run: RunDocument, key: string, replaced: string | null, promotedAt: string): RegisterEntry {
  const a = run.aggregates
  return { promoted_at: promotedAt, suite: run.suite, key, replaced, config_hash: run.config_hash, cases: a.cases, passed: a.passed, failed: a.failed, pass_rate: a.pass_rate }
}

/**
 * The next step for a run that errored: finish it when its journal is still pending (a resume calls
 * the errored cases again), else measure the suite again; only a command accepted in that state.
 */
async function afterErrored(store: Store, tenant: string, suite: string, key: string, replacing: string | undefined): Promise<string> {
  const pending = (await store.pending(tenant, suite)).find((p) => p.key === key)
  if (pending !== undefined && !pending.finished && pending.refusal === undefined) {
    return `digline run --resume ${key} (calls the errored cases again), then ${promoteCommand(suite, key, replacing)}`
  }
  return `vitest run (to measure suite ${suite} again; a finished run is never resumed), then ${promoteCommand(suite, 'NEW_KEY', replacing)} with the new run's key`
}

/** Checks the conditions of ADR 0009 in its order, then has the store swap the baseline. */
export async function promoteRun(request: PromoteRequest): Promise<Promotion> {
  const { store, tenant, suite, key, replacing } = request
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  assertSafeSegment('key', key)
  if (replacing !== undefined) assertSafeSegment('key', replacing)
  await assertNotRetired(store, tenant, suite, `promote run ${key} of suite ${suite}`)
  await assertNotRemoved(store, tenant, suite, key, 'promote')
  const current = await store.readBaseline(tenant, suite)
  const run = await store.readRun(tenant, suite, key)

  if (current !== undefined && !sameVariantIdentity(run.variant, current.variant)) {
    throw variantNameCollision(
      suite,
      `refused to promote run ${key} of suite ${suite}`,
      `the run was filed as ${describeVariantIdentity(run.variant)}`,
      `the suite's baseline (run ${current.promoted_from}) as ${describeVariantIdentity(current.variant)}`,
      'nothing was promoted',
    )
  }
  if (run.rejudged_from !== undefined) {
    throw new ReplayNotPromotableError(
      `refused to promote run ${key} of suite ${suite}: it is a replay of ${run.rejudged_from_suite ?? suite}/${run.rejudged_from} (re-judged without calling the target), and a replay is never a baseline`,
      `vitest run (then ${promoteCommand(suite, 'KEY', current?.promoted_from)} with the new run's key)`,
      ['rejudged_from'],
    )
  }
  if (run.slice !== undefined) {
    throw new SliceNotPromotableError(
      `refused to promote run ${key} of suite ${suite}: it is a slice (${describeSliceTags(run.slice.tags)}: ${run.results.length} of the suite's ${run.slice.suite_cases} cases), and a slice is never the suite's baseline`,
      `digline run --suite ${suite} (the whole suite, no --tag), then ${promoteCommand(suite, 'NEW_KEY', current?.promoted_from)} with the new run's key`,
      ['slice'],
    )
  }
  if (run.cached_answers !== undefined) {
    throw new CachedRunNotPromotableError(
      `refused to promote run ${key} of suite ${suite}: ${run.cached_answers} of its answers came from the response cache instead of calls made by that run, and such a run is never a baseline`,
      `digline run --no-cache (or DIGLINE_CACHE=0 vitest run), then ${promoteCommand(suite, 'NEW_KEY', current?.promoted_from)} with the new run's key`,
      ['cached_answers'],
    )
  }
  if (run.aggregates.errored > 0) {
    const ids = run.results.filter((r) => r.verdict === 'error').map((r) => r.case_id)
    throw new ErroredRunNotPromotableError(
      `refused to promote run ${key} of suite ${suite}: ${ids.length} case(s) errored (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}), so the run was not judged`,
      await afterErrored(store, tenant, suite, key, current?.promoted_from),
      ['aggregates', 'errored'],
    )
  }
  const currentHash = await request.currentConfigHash()
  if (currentHash === undefined) {
    throw new SuiteNotDeclaredError(
      `refused to promote run ${key}: no suite file declares suite ${suite} now, so its current config_hash is unknown`,
      `vitest list (to see the suites declared), or restore the file that declares ${suite}; then promote again`,
      ['--suite'],
    )
  }
  if (currentHash !== run.config_hash) {
    throw new ConfigHashMismatchError(
      `refused to promote run ${key} of suite ${suite}: it was judged under config_hash ${run.config_hash}, and the suite as declared now has config_hash ${currentHash}`,
      `vitest run (to measure the suite as it is now), then ${promoteCommand(suite, 'NEW_KEY', current?.promoted_from)}`,
      ['config_hash'],
    )
  }
  if (current?.promoted_from !== key) {
    if (current !== undefined && replacing === undefined) {
      throw new ReplacingRequiredError(
        `refused to promote run ${key} of suite ${suite}: suite ${suite} has a baseline (${current.promoted_from}, promoted ${current.promoted_at}), and replacing it must be said with --replacing ${current.promoted_from}`,
        promoteCommand(suite, key, current.promoted_from),
        ['--replacing'],
      )
    }
    if (current !== undefined && replacing !== current.promoted_from) {
      throw new ReplacingMismatchError(
        `refused to promote run ${key} of suite ${suite}: --replacing names ${replacing}, but the current baseline is ${current.promoted_from} (promoted ${current.promoted_at})`,
        promoteCommand(suite, key, current.promoted_from),
        ['--replacing'],
      )
    }
    if (current === undefined && replacing !== undefined) {
      throw new ReplacingMismatchError(
        `refused to promote run ${key} of suite ${suite}: --replacing names ${replacing}, but suite ${suite} has no baseline to replace`,
        promoteCommand(suite, key),
        ['--replacing'],
      )
    }
  }

  const promotedAt = (request.now ?? createdAtNow)()
  const expected = replacing ?? null
  const result = await store.promote({ tenant, suite, expected, baseline: baselineOf(run, key, promotedAt), entry: registerEntryOf(run, key, expected, promotedAt) })
  return {
    tenant,
    suite,
    key,
    outcome: result.outcome,
    replaced: result.entry?.replaced ?? null,
    entry: result.entry,
    baselineLocation: result.baselineLocation,
    committedByGit: result.committedByGit,
    registerLocation: result.registerLocation,
  }
}
