// `digline review list|export` (SPEC §17): the labels of a suite, or of one run, as lines for a
// person or as a dataset file that `dataset()` reads back (JSONL, a JSON array or CSV). An export
// holds each reviewer's current label of each case; the case's input and expected value are there
// only when the run recorded them (SPEC §7).
import { randomUUID } from 'node:crypto'
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { RunDocument } from '../../document/schema.js'
import type { Store } from '../../store/contract.js'
import type { ReviewRecord } from '../../store/review.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { resolveRunKey } from '../launch/run-key.js'
import { ExportFileOccupiedError, ExportWriteError } from '../lifecycle/errors.js'
import { currentLabels } from './label-case.js'
import type { DatasetRow } from './review-format.js'

/** Every label of the suite (or of one run: a key or latest), oldest first. */
export async function reviewsOf(store: Store, tenant: string, suite: string, run: string | undefined): Promise<ReviewRecord[]> {
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  const key = run === undefined ? undefined : await resolveRunKey(store, tenant, suite, run)
  if (key !== undefined) await store.readRun(tenant, suite, key) // an unknown or removed run is refused by name, not listed as empty
  return store.listReviews(tenant, suite, key)
}

/** One row per current label; each labelled run is read once, for the case's input and the run's verdict. */
export async function reviewDatasetRows(store: Store, tenant: string, reviews: readonly ReviewRecord[]): Promise<DatasetRow[]> {
  const runs = new Map<string, RunDocument>()
  const rows: DatasetRow[] = []
  for (const r of currentLabels(reviews)) {
    const id = `${r.suite}/${r.run}`
    let doc = runs.get(id)
    if (doc === undefined) runs.set(id, (doc = await store.readRun(tenant, r.suite, r.run)))
    const result = doc.results.find((c) => c.case_id === r.case_id)
    const row: DatasetRow = {
      id: `${r.case_id.slice(0, 115)}.${r.review_id.slice(0, 12)}`,
      input: result?.input ?? null,
      tags: [`human-${r.verdict}`],
      metadata: {
        suite: r.suite,
        run: r.run,
        case_id: r.case_id,
        reviewer: r.reviewer,
        human_verdict: r.verdict,
        judge_verdict: result?.verdict ?? null,
        judges: r.judges,
        note: r.note,
        answer_digest: r.answer_digest,
        review_id: r.review_id,
        reviewed_at: r.created_at,
      },
    }
    if (result?.expected !== undefined) row.expected = result.expected
    rows.push(row)
  }
  return rows
}

/** Writes the dataset file (atomically); one already there with other bytes is refused, one with these bytes left alone. */
export async function writeReviewExport(out: string, cwd: string, text: string): Promise<{ file: string; unchanged: boolean }> {
  const file = resolve(cwd, out)
  let existing: string | undefined
  try {
    existing = (await lstat(file)).isFile() ? await readFile(file, 'utf8') : ''
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') existing = ''
  }
  if (existing === text) return { file, unchanged: true }
  if (existing !== undefined) {
    throw new ExportFileOccupiedError(
      `refused to export the labels to ${file}: a file is in the way there (it holds other bytes, or is not a file); nothing was written`,
      `name a new file with \`digline review export --suite SUITE --out labels.jsonl\`, or move ${file} aside`,
      ['--out'],
    )
  }
  const temp = `${file}.${randomUUID()}.tmp`
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(temp, text, { flag: 'wx' })
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined)
    throw new ExportWriteError(
      `digline review export could not write ${file} (${(error as NodeJS.ErrnoException).code ?? 'an I/O error'}); the store was only read`,
      'Fix the directory or free space, or name another file with --out, then export the labels again.',
      ['--out'],
    )
  }
  return { file, unchanged: false }
}
