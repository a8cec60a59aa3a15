// Promotion: a run becomes its suite's committed baseline, and the register says so (ADR 0009).
// Every condition is checked before the first write; a failed register append puts the previous
// baseline back, so a refused or failed promotion leaves the baseline and the register as they were.
import { baselineOf, type RegisterEntry } from '../document/baseline.js'
import type { RunDocument } from '../document/schema.js'
import {
  ConfigHashMismatchError,
  ErroredRunNotPromotableError,
  ReplacingMismatchError,
  ReplacingRequiredError,
  ReplayNotPromotableError,
  SuiteNotDeclaredError,
} from '../errors.js'
import type { SupportsBaselines } from '../store/baselines.js'
import { assertSafeSegment } from '../suite/assert-safe-segment.js'
import type { ResultStore } from '../store/result-store.js'
import { createdAtNow } from '../suite/keys.js'
import { assertNotRemoved } from './removed-runs.js'

export interface PromoteRequest {
  store: ResultStore & SupportsBaselines
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
  baselineLocation: string
  registerLocation: string
}

function promoteCommand(suite: string, key: string, replacing?: string): string {
  return `digline promote --suite ${suite} --run ${key}${replacing === undefined ? '' : ` --replacing ${replacing}`}`
}

function registerEntryOf(run: RunDocument, key: string, replaced: string | null, promotedAt: string): RegisterEntry {
  const a = run.aggregates
  return { promoted_at: promotedAt, suite: run.suite, key, replaced, config_hash: run.config_hash, cases: a.cases, passed: a.passed, failed: a.failed, pass_rate: a.pass_rate }
}

/** Checks the conditions of ADR 0009 in its order, then writes the baseline and appends the register line. */
export async function promoteRun(request: PromoteRequest): Promise<Promotion> {
  const { store, tenant, suite, key, replacing } = request
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  assertSafeSegment('key', key)
  if (replacing !== undefined) assertSafeSegment('key', replacing)
  await assertNotRemoved(store, tenant, suite, key, 'promote')
  const register = await store.readRegister(tenant)
  const previousBytes = await store.baselineBytes(tenant, suite)
  const current = await store.readBaseline(tenant, suite)
  const run = await store.readRun(tenant, suite, key)
  const where = { tenant, suite, key, baselineLocation: store.baselineLocation(tenant, suite), registerLocation: store.registerLocation(tenant) }

  if (run.rejudged_from !== undefined) {
    throw new ReplayNotPromotableError(
      `refused to promote run ${key} of suite ${suite}: it is a replay of ${run.rejudged_from_suite ?? suite}/${run.rejudged_from} (re-judged without calling the target), and a replay is never a baseline`,
      `vitest run (then ${promoteCommand(suite, 'KEY', current?.promoted_from)} with the new run's key)`,
      ['rejudged_from'],
    )
  }
  if (run.aggregates.errored > 0) {
    const ids = run.results.filter((r) => r.verdict === 'error').map((r) => r.case_id)
    throw new ErroredRunNotPromotableError(
      `refused to promote run ${key} of suite ${suite}: ${ids.length} case(s) errored (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}), so the run was not judged`,
      `digline run --resume ${key} (calls the errored cases again), then ${promoteCommand(suite, key, current?.promoted_from)}`,
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

  if (current !== undefined && current.promoted_from === key) {
    const last = register.filter((e) => e.suite === suite).at(-1)
    if (last?.key === key) return { ...where, outcome: 'already', replaced: last.replaced, entry: undefined }
    const entry = registerEntryOf(run, key, replacing ?? null, current.promoted_at)
    await store.appendRegister(tenant, entry)
    return { ...where, outcome: 'completed', replaced: entry.replaced, entry }
  }
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

  const promotedAt = (request.now ?? createdAtNow)()
  const replaced = current?.promoted_from ?? null
  const entry = registerEntryOf(run, key, replaced, promotedAt)
  let stored: Awaited<ReturnType<typeof store.writeBaseline>>
  try {
    stored = await store.writeBaseline(baselineOf(run, key, promotedAt))
    // A delete of KEY that passed its baseline check meanwhile has written its record by now, or
    // it reads this baseline when it checks again (docs/adr/0014): one of the two steps back.
    await assertNotRemoved(store, tenant, suite, key, 'promote')
    await store.appendRegister(tenant, entry)
  } catch (error) {
    await store.restoreBaseline(tenant, suite, previousBytes).catch(() => undefined)
    throw error
  }
  return { ...where, baselineLocation: stored.location, outcome: 'promoted', replaced, entry }
}
