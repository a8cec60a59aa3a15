// How review labels read as lines, and a review dataset as a file's text: pure wording, behind the
// host's door without the store (ADR 0420). review-dataset.ts reads and writes them.
import { extname } from 'node:path'
import type { ReviewRecord } from '../../store/review.js'
import { UsageError } from '../errors.js'

export type DatasetFormat = 'jsonl' | 'json' | 'csv'

export function formatReviewLines(reviews: readonly ReviewRecord[]): string[] {
  return reviews.map((r) => {
    const judges = Object.entries(r.judges)
      .map(([name, opinion]) => `${opinion === 'agree' ? 'agrees with' : 'disagrees with'} ${name}`)
      .join(', ')
    return `${r.created_at}  ${r.run}  ${r.case_id}  ${r.verdict}  ${r.reviewer}${judges === '' ? '' : `  (${judges})`}${r.note === null ? '' : `  note: ${r.note}`}`
  })
}

export function datasetFormatOf(file: string): DatasetFormat {
  const ext = extname(file).toLowerCase()
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl'
  if (ext === '.json') return 'json'
  if (ext === '.csv') return 'csv'
  throw new UsageError(
    `digline review export: --out ${JSON.stringify(file)} does not end in .jsonl, .json or .csv, the dataset formats dataset() reads`,
    'Run `digline review export --help`.',
    ['--out'],
  )
}

export interface DatasetRow {
  id: string
  input: unknown
  expected?: unknown
  tags: string[]
  metadata: {
    suite: string
    run: string
    case_id: string
    reviewer: string
    human_verdict: 'pass' | 'fail'
    judge_verdict: string | null
    judges: Record<string, 'agree' | 'disagree'>
    note: string | null
    answer_digest: string
    review_id: string
    reviewed_at: string
  }
}

const CSV_META = ['suite', 'run', 'case_id', 'reviewer', 'human_verdict', 'judge_verdict', 'judges', 'note', 'answer_digest', 'review_id', 'reviewed_at'] as const

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function datasetText(rows: readonly DatasetRow[], format: DatasetFormat): string {
  if (format === 'jsonl') return rows.map((r) => `${JSON.stringify(r)}\n`).join('')
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`
  const header = ['id', 'input', 'expected', 'tags', ...CSV_META]
  const lines = rows.map((r) => [r.id, r.input, r.expected, r.tags.join(','), ...CSV_META.map((k) => r.metadata[k])].map(csvCell).join(','))
  return `${[header.join(','), ...lines].join('\n')}\n`
}
