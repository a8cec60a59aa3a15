// Run against run (SPEC §15, ADR 0230): any two filed runs of a suite, with run B in the baseline's
// place — the same pairing over the shared cases, the same intervals and gates, the same verdict
// order and exit codes — plus how far their case sets differ and each flipped case explained.
import type { RunDocument } from '../../document/schema.js'
import { exitCodeForStatus, type ExitCode } from '../../exit-codes.js'
import type { Store } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { keyFor } from '../../suite/keys.js'
import type { ComparedBaseline } from './compare.js'
import { flippedCases, type FlippedCase } from './explain-run.js'
import { judgeRun } from './judge-run.js'
import { resolveRunKey } from '../launch/run-key.js'
import type { SuiteOutcome } from './suite-outcome.js'
import { describeVariantIdentity, sameVariantIdentity, variantNameCollision } from '../../suite/variants.js'

export interface RunAgainstRun {
  suite: string
  /** Run A, judged. */
  key: string
  /** Run B, in the baseline's place. */
  against: string
  status: SuiteOutcome['status']
  exit_code: ExitCode
  /** A's outcome: its thresholds, and its comparison with B (`comparison.reference` is `run`). */
  outcome: SuiteOutcome & { comparison: ComparedBaseline }
  /** How the two case sets differ: judged in both (paired), errored in either (left out), only in A, only in B; `same` when no case is in one run only. */
  cases: { shared: number; errored_either: number; only_in_run: number; only_in_against: number; same: boolean }
  flipped: FlippedCase[]
}

/**
 * Run `runArg` of suite `suite` against run `againstArg` (each a key or `latest`). Both must be
 * filed runs of the suite; a missing one is refused as `digline show` refuses it.
 */
export async function compareRunAgainst(store: Store, tenant: string, suite: string, runArg: string, againstArg: string): Promise<RunAgainstRun> {
  assertSafeSegment('suite', suite)
  for (const arg of [runArg, againstArg]) if (arg !== 'latest') assertSafeSegment('key', arg)
  const key = await resolveRunKey(store, tenant, suite, runArg)
  const againstKey = await resolveRunKey(store, tenant, suite, againstArg)
  const run = await store.readRun(tenant, suite, key)
  const against = againstKey === key ? run : await store.readRun(tenant, suite, againstKey)
  if (!sameVariantIdentity(run.variant, against.variant)) {
    throw variantNameCollision(
      suite,
      `refused to compare run ${key} of suite ${suite} against run ${againstKey}`,
      `run ${key} was filed as ${describeVariantIdentity(run.variant)}`,
      `run ${againstKey} as ${describeVariantIdentity(against.variant)}`,
      'nothing was compared',
    )
  }
  return judgeAgainst(store, run, against, { tenant, suite, key, location: `run ${key} of suite ${suite}` })
}

async function judgeAgainst(store: Store, run: RunDocument, against: RunDocument, filed: { tenant: string; suite: string; key: string; location: string }): Promise<RunAgainstRun> {
  const outcome = await judgeRun(store, run, filed, against)
  const comparison = outcome.comparison as ComparedBaseline
  const onlyInRun = comparison.added.length
  const onlyInAgainst = comparison.removed.length
  return {
    suite: filed.suite,
    key: filed.key,
    against: keyFor(against.created_at, against.config_hash),
    status: outcome.status,
    exit_code: exitCodeForStatus(outcome.status),
    outcome: { ...outcome, comparison },
    cases: { shared: comparison.shared, errored_either: comparison.excluded.length, only_in_run: onlyInRun, only_in_against: onlyInAgainst, same: onlyInRun + onlyInAgainst === 0 },
    flipped: flippedCases(comparison, against.results, run.results),
  }
}
