// dataset(): a suite's cases read from files (JSONL, a JSON array, CSV with a header row, or a glob
// of files), each row mapped to a case, each file recorded by sha256 (docs/adr/0220).
import { sha256Hex, canonicalJson } from './hashing.js'
import { describeNotPlain, findNotPlain } from './plain-data.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from './safe-segment.js'
import { isTag, TAG_RULE } from './slice.js'
import { datasetFiles, describePlace, formatOf, newHash, readRows, refuseRow, type DatasetFormat, type RowPlace } from './dataset-files.js'
import { InvalidDatasetError } from './errors.js'
import type { Dataset, EvalCase, JsonObject, RetrievedContext } from './types.js'

export type { DatasetFormat, RowPlace } from './dataset-files.js'

/** What a map makes of a row; `id` here is used when the dataset's `id` option is not given. */
export interface DatasetCase<I = unknown, E = unknown> {
  id?: string
  input: I
  expected?: E
  metadata?: JsonObject
  tags?: readonly string[]
  /** Retrieved passages for the RAG scorers (docs/scorers.md). */
  context?: RetrievedContext
}

/** A row as read: a JSON value (JSONL, JSON), a record of strings keyed by the header (CSV), or `{ path, text }` (any other file). */
export type DatasetRow = Record<string, unknown>

export interface DatasetOptions<I = unknown, E = unknown> {
  /** Row → case. Default: the row's `input`, `expected`, `metadata` and `tags` (CSV: other columns go to metadata; `tags` is split on commas). */
  map?: (row: DatasetRow, place: RowPlace) => DatasetCase<I, E>
  /** The column that holds the id, or a function of the row. Default: the map's id, else the row's `id`, else an id from the row's content. */
  id?: string | ((row: DatasetRow, place: RowPlace) => string)
  /** Read every file as this format instead of by its extension (.jsonl/.ndjson, .json, .csv; anything else is one case per file). */
  format?: DatasetFormat
  /** The directory paths are relative to (default: the Vitest root). */
  root?: string
}

const CSV_FIELDS = new Set(['id', 'input', 'expected', 'tags'])

/** Reads every file `pattern` names (a path or a glob, relative to `options.root`) into cases, in code-point order of paths. */
export async function readDataset<I = unknown, E = unknown>(pattern: string, options: DatasetOptions<I, E> & { root: string }): Promise<Dataset<I, E>> {
  if (typeof pattern !== 'string' || pattern === '')
    throw new InvalidDatasetError('dataset() was refused: its first argument must be a path or a glob', "Call dataset('data/cases.jsonl').", [])
  const cases: EvalCase<I, E>[] = []
  const files: Record<string, string> = {}
  const seen = new Map<string, RowPlace>()
  for (const file of await datasetFiles(pattern, options.root)) {
    const format = formatOf(file, options.format)
    const hash = newHash()
    for await (const { row, place } of readRows(file, options.root, format, hash)) {
      const evalCase = toCase(row, place, format, options)
      const earlier = seen.get(evalCase.id)
      if (earlier !== undefined) {
        throw new InvalidDatasetError(
          `dataset ${describePlace(place)}, field id was refused: the case id ${JSON.stringify(evalCase.id)} is also the id of ${describePlace(earlier)}; case ids must be unique`,
          `Give one of the two rows another id (${describePlace(earlier)} or ${describePlace(place)}), then run \`vitest run\` again.`,
          [place.file, place.line ?? place.index ?? 0, 'id'],
        )
      }
      seen.set(evalCase.id, place)
      cases.push(evalCase)
    }
    files[file] = hash.digest('hex')
  }
  if (cases.length === 0)
    throw new InvalidDatasetError(
      `dataset ${pattern} was refused: it holds no rows`,
      `Add rows to ${pattern} (or point dataset() at the file that has them), then run \`vitest run\` again.`,
      [pattern],
    )
  return { kind: 'digline-dataset', cases, files }
}

function toCase<I, E>(row: unknown, place: RowPlace, format: DatasetFormat, options: DatasetOptions<I, E>): EvalCase<I, E> {
  if (row === null || typeof row !== 'object' || Array.isArray(row))
    refuseRow(place, undefined, `is ${row === null ? 'null' : Array.isArray(row) ? 'an array' : typeof row}, not an object`)
  const record = row as DatasetRow
  let mapped: DatasetCase<I, E>
  if (options.map === undefined) mapped = defaultMap(record, place, format) as DatasetCase<I, E>
  else {
    try {
      mapped = options.map(record, place)
    } catch (error) {
      refuseRow(place, undefined, `the dataset's map threw: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (mapped === null || typeof mapped !== 'object') refuseRow(place, undefined, "the dataset's map returned no object; it returns { input, expected?, metadata?, tags?, id? }")
    if (mapped.input === undefined) refuseRow(place, 'input', "the dataset's map returned no input")
  }
  const id = idOf(record, place, format, mapped, options)
  if (!isSafeSegment(id)) refuseRow(place, 'id', `${JSON.stringify(id)} is not one safe path segment (${SAFE_SEGMENT_RULE})`)
  if (mapped.metadata !== undefined && (mapped.metadata === null || typeof mapped.metadata !== 'object' || Array.isArray(mapped.metadata))) {
    refuseRow(place, 'metadata', 'must be an object')
  }
  if (mapped.tags !== undefined) {
    if (!Array.isArray(mapped.tags)) refuseRow(place, 'tags', 'must be a list of tags')
    const bad = mapped.tags.find((t) => !isTag(t))
    if (bad !== undefined) refuseRow(place, 'tags', `${JSON.stringify(bad)} is not a tag (${TAG_RULE})`)
  }
  const evalCase: EvalCase<I, E> = { id, input: mapped.input }
  if (mapped.expected !== undefined) evalCase.expected = mapped.expected
  if (mapped.metadata !== undefined) evalCase.metadata = mapped.metadata
  if (mapped.tags !== undefined && mapped.tags.length > 0) evalCase.tags = [...mapped.tags]
  if (mapped.context !== undefined) evalCase.context = mapped.context
  if (mapped.context !== undefined) {
    const { context } = mapped
    if (typeof context !== 'string' && !(Array.isArray(context) && context.every((p) => typeof p === 'string')))
      refuseRow(place, 'context', 'must be a string or a list of strings')
    evalCase.context = typeof context === 'string' ? context : [...context]
  }
  for (const field of ['input', 'expected', 'metadata'] as const) {
    const offence = findNotPlain(evalCase[field], [field], { allowUndefinedRoot: true })
    if (offence !== undefined) refuseRow(place, field, describeNotPlain(offence))
  }
  return evalCase
}

function defaultMap(row: DatasetRow, place: RowPlace, format: DatasetFormat): DatasetCase {
  if (format === 'file') return { input: row.text, metadata: { path: row.path } }
  if (!Object.hasOwn(row, 'input')) {
    refuseRow(
      place,
      'input',
      `is missing (without a map, a row's input is its ${format === 'csv' ? '`input` column' : '`input` field'}; pass { map } to build cases from other fields)`,
    )
  }
  if (format !== 'csv') {
    const out: DatasetCase = { input: row.input }
    if (row.expected !== undefined) out.expected = row.expected
    if (row.metadata !== undefined) out.metadata = row.metadata as JsonObject
    if (row.tags !== undefined) out.tags = row.tags as string[]
    if (row.context !== undefined) out.context = row.context as RetrievedContext
    return out
  }
  const out: DatasetCase = { input: row.input }
  if (typeof row.expected === 'string' && row.expected !== '') out.expected = row.expected
  if (typeof row.tags === 'string')
    out.tags = row.tags
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '')
  const rest = Object.entries(row).filter(([column]) => !CSV_FIELDS.has(column))
  if (rest.length > 0) out.metadata = Object.fromEntries(rest)
  return out
}

function idOf<I, E>(row: DatasetRow, place: RowPlace, format: DatasetFormat, mapped: DatasetCase<I, E>, options: DatasetOptions<I, E>): string {
  const { id } = options
  if (typeof id === 'function') {
    let value: unknown
    try {
      value = id(row, place)
    } catch (error) {
      refuseRow(place, 'id', `the dataset's id function threw: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (typeof value !== 'string') refuseRow(place, 'id', `the dataset's id function returned ${typeof value}, not a string`)
    return value
  }
  if (typeof id === 'string') return idFromField(row, place, id)
  if (mapped.id !== undefined) return mapped.id
  if (Object.hasOwn(row, 'id') && format !== 'file') return idFromField(row, place, 'id')
  return format === 'file' ? idFromPath(String(row.path)) : `row-${sha256Hex(canonicalJson(row)).slice(0, 12)}`
}

function idFromField(row: DatasetRow, place: RowPlace, field: string): string {
  const value = row[field]
  if (value === undefined || value === '') refuseRow(place, field, 'is missing; it holds the case id')
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  if (typeof value !== 'string') refuseRow(place, field, `is ${value === null ? 'null' : typeof value}; a case id is a string (or an integer)`)
  return value
}

/** `cases/billing/refund one.md` → `cases.billing.refund-one`: the path without its extension, made one safe segment. */
export function idFromPath(path: string): string {
  const slug = path
    .replace(/\.[^./]*$/, '')
    .replace(/\//g, '.')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
  return isSafeSegment(slug) ? slug : `file-${sha256Hex(path).slice(0, 12)}`
}

/** Whether a suite's `cases` is a dataset dataset() read. */
export function isDataset(value: unknown): value is Dataset {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'digline-dataset' && Array.isArray((value as Dataset).cases)
}
