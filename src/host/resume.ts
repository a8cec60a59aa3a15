// What a resumed launch may reuse from a journal, and the checks that make two legs one run.
import { hostname } from 'node:os'
import { preview } from '../suite/preview.js'
import { canonicalJson } from '../suite/hashing.js'
import { judgeConfigOf } from '../suite/hashing.js'
import { ResumeMismatchError } from '../errors.js'
import { JOURNAL_VERSION, RESUME_CHECKED_FIELDS, type JournalHeader, type Pending } from '../store/journal.js'
import type { CaseResult } from '../document/schema.js'
import { DIGLINE_VERSION } from '../version.js'
import type { Prepared } from './prepare-run.js'

/** The header a leg of this launch carries (leg number apart). */
export function journalHeaderFor(prepared: Prepared, startedAt: string): Omit<JournalHeader, 'leg'> {
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
    judge_config: judgeConfigOf(prepared.suite.scorers),
    record_responses: prepared.suite.recordResponses,
    git_commit: prepared.gitCommit ?? null,
    host: hostname(),
    pid: process.pid,
  }
}

const WHY: Record<(typeof RESUME_CHECKED_FIELDS)[number], string> = {
  journal_version: 'this digline writes another journal format',
  digline_version: 'half of the verdicts would come from another digline',
  tenant: 'it is a run of another tenant',
  environment: 'it is a run of another environment',
  suite: 'it is a run of another suite',
  config_hash: 'the rules changed (samples, minAgreement, thresholds, tolerances, scorers)',
  cases_digest: 'the cases changed',
  artifacts: 'an artifact the suite depends on changed',
  target_config: "the target's declared config changed",
  judge_config: "the scorers' declared config changed",
  record_responses: 'recordResponses changed',
  git_commit: 'the code around the suite is at another commit',
}

/** Refuses, naming the first field that differs, before any call is made. */
export function assertResumable(pending: Pending, now: Omit<JournalHeader, 'leg'>): void {
  const header = pending.header!
  for (const field of RESUME_CHECKED_FIELDS) {
    const then = header[field]
    const current = now[field]
    if (canonicalJson(then) !== canonicalJson(current)) {
      throw new ResumeMismatchError(
        `resume of run ${pending.key} (suite ${pending.suite}) was refused: ${field} differs — journal ${shown(then)}, now ${shown(current)}; ${WHY[field]}`,
        `Restore ${field} and run \`digline run --resume ${pending.key}\` again, or start a fresh run with \`digline run\`; the journal is left as it was.`,
        [field],
      )
    }
  }
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
