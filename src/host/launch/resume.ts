// What a resumed launch may reuse from a journal, and the checks that make two legs one run.
import { preview } from '../../suite/preview.js'
import { canonicalJson } from '../../suite/hashing.js'
import { judgeConfigOf } from '../../suite/hashing.js'
import { variantHeader } from '../../suite/variants.js'
import { ResumeMismatchError } from './errors.js'
import { JOURNAL_VERSION, RESUME_CHECKED_FIELDS, type JournalOpening, type Pending } from '../../store/journal.js'
import { leaseOfThisProcess } from '../../store/live-writer.js'
import type { CaseResult } from '../../document/schema.js'
import { DIGLINE_VERSION } from '../../version.js'
import type { Prepared } from './prepared.js'
import { shardLabel } from './shard.js'
import { describeSliceTags } from '../../suite/slice.js'

/** The header a leg of this launch carries (leg number apart), and the cases it declares. */
export function journalHeaderFor(prepared: Prepared, startedAt: string): JournalOpening {
  return {
    journal_version: JOURNAL_VERSION,
    created_at: prepared.createdAt,
    started_at: startedAt,
    digline_version: DIGLINE_VERSION,
    tenant: prepared.tenant,
    environment: prepared.environment,
    suite: prepared.suite.name,
    config_hash: prepared.configHash,
    cases_digest: prepared.casesDigest,
    artifacts: prepared.artifacts,
    target_config: prepared.suite.targetConfig,
    judge_config: judgeConfigOf(prepared.suite.scorers, prepared.suite.conversation?.user),
    record_responses: prepared.suite.recordResponses,
    git_commit: prepared.gitCommit ?? null,
    lease: leaseOfThisProcess(),
    declared: {
      samples: prepared.suite.rules.samples,
      ...(prepared.suite.rules.min_samples === undefined ? {} : { min_samples: prepared.suite.rules.min_samples }),
      digests: prepared.caseDigests,
    },
    ...(prepared.shard === undefined ? {} : { shard: shardLabel(prepared.shard) }),
    ...(Object.keys(prepared.suite.datasets).length === 0 ? {} : { datasets: { ...prepared.suite.datasets } }),
    ...(prepared.suite.slice === undefined ? {} : { slice: { tags: [...prepared.suite.slice.tags], suite_cases: prepared.suite.slice.suite_cases } }),
    ...(prepared.suite.variant === undefined ? {} : { variant: variantHeader(prepared.suite.variant) }),
  }
}

const NAMED_AT_MOST = 20

function listed(ids: readonly string[]): string {
  const shown = ids
    .slice(0, NAMED_AT_MOST)
    .map((id) => JSON.stringify(id))
    .join(', ')
  return ids.length > NAMED_AT_MOST ? `${shown} and ${ids.length - NAMED_AT_MOST} more` : shown
}

/** Which cases changed between the journal's declaration and the suite's now: added, removed, changed. */
export function describeCaseChanges(then: Record<string, string>, now: Record<string, string>): string {
  const added = Object.keys(now).filter((id) => !Object.hasOwn(then, id))
  const removed = Object.keys(then).filter((id) => !Object.hasOwn(now, id))
  const changed = Object.keys(now).filter((id) => Object.hasOwn(then, id) && then[id] !== now[id])
  const parts: string[] = []
  if (added.length > 0) parts.push(`added ${listed(added)}`)
  if (removed.length > 0) parts.push(`removed ${listed(removed)}`)
  if (changed.length > 0) parts.push(`changed ${listed(changed)}`)
  if (parts.length === 0) parts.push('the same cases in another order')
  return parts.join('; ')
}

const WHY: Record<(typeof RESUME_CHECKED_FIELDS)[number], string> = {
  journal_version: 'this digline writes another journal format',
  digline_version: 'half of the verdicts would come from another digline',
  tenant: 'it is a run of another tenant',
  environment: 'it is a run of another environment',
  suite: 'it is a run of another suite',
  slice: 'the run was started as another slice of the suite (its --tag)',
  variant: 'the run was started as a variant of a suite, or as a suite of its own, and this launch declares it the other way',
  datasets: 'a dataset file the cases are read from changed',
  config_hash: 'the rules changed (samples, minAgreement, thresholds, tolerances, scorers)',
  cases_digest: 'the cases changed',
  artifacts: 'an artifact the suite depends on changed',
  target_config: "the target's declared config changed",
  judge_config: "the scorers' (or the simulated user's) declared config changed",
  record_responses: 'recordResponses changed',
  git_commit: 'the code around the suite is at another commit',
}

/** Refuses, naming the first field that differs, before any call is made. */
export function assertResumable(pending: Pending, now: JournalOpening): void {
  const header = pending.header!
  for (const field of RESUME_CHECKED_FIELDS) {
    const then = header[field]
    const current = now[field]
    if (canonicalJson(then) !== canonicalJson(current)) {
      if (field === 'datasets') refuseChangedDataset(pending, then as Record<string, string> | undefined, current as Record<string, string> | undefined)
      if (field === 'slice') refuseOtherSlice(pending, then as JournalOpening['slice'], current as JournalOpening['slice'])
      const why =
        field === 'cases_digest' && pending.declared !== undefined ? `the cases changed: ${describeCaseChanges(pending.declared.digests, now.declared.digests)}` : WHY[field]
      throw new ResumeMismatchError(
        `resume of run ${pending.key} (suite ${pending.suite}) was refused: ${field} differs — journal ${shown(then)}, now ${shown(current)}; ${why}`,
        `Restore ${field} and run \`digline run --resume ${pending.key}\` again, or start a fresh run with \`digline run\`; the journal is left as it was.`,
        [field],
      )
    }
  }
}

/** Names the dataset files that changed, appeared or went away since the journal's leg began. */
function refuseChangedDataset(pending: Pending, then: Record<string, string> | undefined, now: Record<string, string> | undefined): never {
  const before = then ?? {}
  const after = now ?? {}
  const changed = Object.keys(after).filter((f) => Object.hasOwn(before, f) && before[f] !== after[f])
  const added = Object.keys(after).filter((f) => !Object.hasOwn(before, f))
  const removed = Object.keys(before).filter((f) => !Object.hasOwn(after, f))
  const parts = [
    ...changed.map((f) => `${f} changed (sha256 ${before[f]!.slice(0, 12)}… in the journal, ${after[f]!.slice(0, 12)}… now)`),
    ...added.map((f) => `${f} is read now and was not then`),
    ...removed.map((f) => `${f} was read then and is not now`),
  ]
  throw new ResumeMismatchError(
    `resume of run ${pending.key} (suite ${pending.suite}) was refused: dataset ${parts.join('; ')}; the cases of the two legs would not be one dataset`,
    `Restore ${[...changed, ...removed, ...added][0] ?? 'the dataset'} as it was and run \`digline run --resume ${pending.key}\` again, or start a fresh run with \`digline run\`; the journal is left as it was.`,
    ['datasets', ...changed, ...removed, ...added],
  )
}

function refuseOtherSlice(pending: Pending, then: JournalOpening['slice'], now: JournalOpening['slice']): never {
  const was = then === undefined ? 'the whole suite' : `the slice ${describeSliceTags(then.tags)}`
  const is = now === undefined ? 'the whole suite' : `the slice ${describeSliceTags(now.tags)}`
  const tags = then === undefined ? '' : then.tags.map((t) => ` --tag ${t}`).join('')
  throw new ResumeMismatchError(
    `resume of run ${pending.key} (suite ${pending.suite}) was refused: slice differs — the run is ${was}, this launch runs ${is}; nothing was called`,
    `digline run --resume ${pending.key}${tags}`,
    ['slice'],
  )
}

function shown(value: unknown): string {
  return value === undefined ? 'absent' : preview(value)
}

export interface ResumeSelection {
  /** Cases not called again. */
  done: Map<string, CaseResult>
  /** Errored cases called again. */
  retried: number
}

/** Which journaled cases this leg reuses: all judged ones, and errored ones only with keepErrors. */
export function selectDone(pending: Pending, caseIds: ReadonlySet<string>, keepErrors: boolean): ResumeSelection {
  const done = new Map<string, CaseResult>()
  let retried = 0
  for (const [id, result] of pending.done) {
    if (!caseIds.has(id)) continue
    if (result.verdict === 'error' && !keepErrors) retried++
    else done.set(id, result)
  }
  return { done, retried }
}
