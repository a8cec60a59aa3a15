// The cases of a table as the page carries them (docs/adr/0395): one array per case instead of one
// object, so no key is repeated 100,000 times; verdict and baseline as one small number; the flip
// left out (the page derives it); scorer names, reasons and error texts stored once in a string
// table and named by their index. What is rare (timelines, conversations, recorded answers) keeps its own shape.
import type { CaseRow, ReportData, TokenCount, Verdict } from '../host/index.js'

export const CASE_COLUMNS_FORMAT = 'digline-cases/1'

const VERDICTS: readonly (Verdict | null)[] = ['pass', 'fail', 'error', null]

/** A scorer's entry in one sample: [name, pass (1/0, +2 when borderline), score] and [reason] when it has one. */
type ScorerCell = [number, number, number] | [number, number, number, number]

/**
 * One case: [id, verdict × 4 + baseline, score, samples as "1"/"0", scores per sample,
 * input tokens, output tokens, judge input tokens, judge output tokens, reason, error, rare fields];
 * trailing nulls are left off.
 */
export type CaseCells = unknown[]

export interface CaseColumns {
  format: typeof CASE_COLUMNS_FORMAT
  strings: string[]
  rows: CaseCells[]
}

class StringTable {
  readonly strings: string[] = []
  private readonly index = new Map<string, number>()
  of(text: string): number {
    let i = this.index.get(text)
    if (i === undefined) {
      i = this.strings.length
      this.strings.push(text)
      this.index.set(text, i)
    }
    return i
  }
}

function tokenCells(usage: TokenCount | null): [number | null, number | null] {
  return usage === null ? [null, null] : [usage.input_tokens, usage.output_tokens]
}

/** The fields packed into their own cells; every other field a row has (timelines, conversations, recorded answers) is kept as it is. */
const PACKED: ReadonlySet<string> = new Set(['id', 'verdict', 'baseline', 'flip', 'score', 'samples', 'scores', 'usage', 'judge_usage', 'reason', 'error'])

function rareFields(row: CaseRow): Record<string, unknown> | null {
  const rare: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(row)) if (!PACKED.has(field)) rare[field] = value ?? null
  return Object.keys(rare).length === 0 ? null : rare
}

/** The cases of one table, packed for the page. */
export function packCases(rows: readonly CaseRow[]): CaseColumns {
  const table = new StringTable()
  const packed = rows.map((row) => {
    const scores = row.scores.map((s) =>
      s.scorers.map((sc): ScorerCell => {
        const pass = (sc.pass ? 1 : 0) + (sc.borderline === true ? 2 : 0)
        return sc.reason === null ? [table.of(sc.name), pass, sc.score] : [table.of(sc.name), pass, sc.score, table.of(sc.reason)]
      }),
    )
    const cells: CaseCells = [
      row.id,
      VERDICTS.indexOf(row.verdict) * 4 + VERDICTS.indexOf(row.baseline),
      row.score,
      row.samples.map((p) => (p ? '1' : '0')).join(''),
      scores,
      ...tokenCells(row.usage),
      ...tokenCells(row.judge_usage),
      row.reason === null ? null : table.of(row.reason),
      row.error === null ? null : [table.of(row.error.cause), table.of(row.error.message)],
      rareFields(row),
    ]
    while (cells.length > 1 && cells[cells.length - 1] === null) cells.pop()
    return cells
  })
  return { format: CASE_COLUMNS_FORMAT, strings: table.strings, rows: packed }
}

/** The report's data as the page reads it: every cases table packed, the rest as it is. */
export function pageData(data: ReportData): unknown {
  return {
    ...data,
    suites: data.suites.map((s) => ({ ...s, cases: packCases(s.cases) })),
    live: data.live.map((r) => ({ ...r, cases: packCases(r.cases) })),
  }
}
