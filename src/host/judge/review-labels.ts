// The people's labels a run's judges are held to (ADR 0351), read from the suite's review records:
// each reviewer's newest label of a case of a filed run, for every judge of the run that was the same
// judge there (same name, config and pass_at), paired with that judge's verdict on the answers the
// person looked at (the labelled run's case, whose answer digest the record names).
import type { CaseResult, RunDocument } from '../../document/schema.js'
import { isDiglineError } from '../../errors/base.js'
import { judgeNames } from '../../suite/judge-scorers.js'
import { keyFor } from '../../suite/keys.js'
import { judgeIdentity, scorerVerdict, type JudgeLabel } from './judge-agreement.js'

/** What a label is read from: the fields of a review record it uses. */
export interface LabelRecord {
  reviewer: string
  run: string
  case_id: string
  answer_digest: string
  judges: Readonly<Record<string, 'agree' | 'disagree'>>
}

/** Each reviewer's newest record of each case of each run (records come oldest first). */
export function newestPerReviewer<R extends LabelRecord>(records: readonly R[]): R[] {
  const newest = new Map<string, R>()
  for (const r of records) newest.set(JSON.stringify([r.reviewer, r.run, r.case_id]), r)
  return [...newest.values()]
}

/**
 * The labels of `document`'s judges in `records` (newest per reviewer already taken). `runOf` reads a
 * labelled run (undefined: it cannot be read, and its labels are passed over); `digestOf` is the
 * answer digest a record names. A label whose case is gone, errored, or holds other answers than the
 * record names is passed over, as is one of a judge that was another judge in the labelled run.
 */
export function labelsFrom(document: RunDocument, records: readonly LabelRecord[], runs: ReadonlyMap<string, RunDocument>, digestOf: (result: CaseResult) => string): JudgeLabel[] {
  const judges = judgeNames(document.judge_config)
  const identity = new Map(judges.map((j) => [j, judgeIdentity(document.judge_config, j)]))
  const labels: JudgeLabel[] = []
  for (const record of records) {
    const labelled = runs.get(record.run)
    const result = labelled?.results.find((r) => r.case_id === record.case_id)
    if (labelled === undefined || result === undefined || result.verdict === 'error' || digestOf(result) !== record.answer_digest) continue
    for (const judge of judges) {
      const opinion = record.judges[judge]
      if (opinion === undefined || judgeIdentity(labelled.judge_config, judge) !== identity.get(judge)) continue
      const judged = scorerVerdict(result, judge, labelled.rules)
      if (judged === undefined) continue
      labels.push({ judge, unit: `${record.case_id}/${record.answer_digest}`, judged, human: opinion === 'agree' ? judged : !judged })
    }
  }
  return labels
}

/** The labelled runs the records name, read once each; the judged run itself is not read again. */
export async function labelledRuns(readRun: (key: string) => Promise<RunDocument>, document: RunDocument, records: readonly LabelRecord[]): Promise<Map<string, RunDocument>> {
  const runs = new Map<string, RunDocument>([[keyFor(document.created_at, document.config_hash), document]])
  for (const key of new Set(records.map((r) => r.run))) {
    if (runs.has(key)) continue
    try {
      runs.set(key, await readRun(key))
    } catch (error) {
      // A labelled run that was removed or cannot be read takes its labels with it.
      if (!isDiglineError(error)) throw error
    }
  }
  return runs
}
