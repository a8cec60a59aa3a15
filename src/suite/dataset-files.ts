// The files a dataset names and the rows in each, read as streams: every byte goes through the
// file's sha256 as it is parsed, so a file is read once and a large one is never held whole.
import { createHash, type Hash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { CsvError } from 'csv-parse'
import { globMatches, isGlob } from './lazy-glob.js'
import { InvalidDatasetError } from './errors.js'

export type DatasetFormat = 'jsonl' | 'json' | 'csv' | 'file'

/** Where a row is: its file (relative to the root), and its line (JSONL, CSV), row (CSV, 1-based, header apart) or index (JSON). */
export interface RowPlace {
  file: string
  line?: number
  row?: number
  index?: number
}

export interface ReadRow {
  row: unknown
  place: RowPlace
}

/** `data/t.jsonl line 7`, `data/t.csv row 3 (line 5)`, `data/t.json [2]`, `cases/a.md`. */
export function describePlace(place: RowPlace): string {
  if (place.row !== undefined) return `${place.file} row ${place.row} (line ${place.line})`
  if (place.line !== undefined) return `${place.file} line ${place.line}`
  if (place.index !== undefined) return `${place.file} [${place.index}]`
  return place.file
}

export function refuseRow(place: RowPlace, field: string | undefined, why: string): never {
  const where = `${describePlace(place)}${field === undefined ? '' : `, field ${field}`}`
  throw new InvalidDatasetError(`dataset ${where} was refused: ${why}`, `Fix ${describePlace(place)} (or the dataset's map), then run \`vitest run\` again.`, [
    place.file,
    place.line ?? place.index ?? 0,
    ...(field === undefined ? [] : [field]),
  ])
}

function refuseFile(file: string, why: string): never {
  throw new InvalidDatasetError(`dataset ${file} was refused: ${why}`, `Fix the dataset path or the file ${file}, then run \`vitest run\` again.`, [file])
}

/** The files a path or glob names, relative to root, in code-point order of their paths. */
export async function datasetFiles(pattern: string, root: string): Promise<string[]> {
  if (await isGlob(pattern)) {
    const matched = (await globMatches(pattern, root)).sort(byCodePoint)
    if (matched.length > 0) return matched
  }
  const isFile = await stat(resolve(root, pattern)).then(
    (s) => s.isFile(),
    () => false,
  )
  if (!isFile) refuseFile(pattern, (await isGlob(pattern)) ? `matches no file under ${root}` : `is not a file under ${root}`)
  return [pattern]
}

export function formatOf(file: string, declared: DatasetFormat | undefined): DatasetFormat {
  if (declared !== undefined) return declared
  const ext = extname(file).toLowerCase()
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl'
  if (ext === '.json') return 'json'
  if (ext === '.csv') return 'csv'
  return 'file'
}

/** The rows of one file, in order; `hash` has seen every byte of the file when the generator ends. */
export function readRows(file: string, root: string, format: DatasetFormat, hash: Hash): AsyncGenerator<ReadRow> {
  const path = resolve(root, file)
  if (format === 'jsonl') return jsonlRows(file, path, hash)
  if (format === 'csv') return csvRows(file, path, hash)
  return wholeFileRows(file, path, format, hash)
}

export function newHash(): Hash {
  return createHash('sha256')
}

function hashedStream(file: string, path: string, hash: Hash) {
  const stream = createReadStream(path)
  stream.on('data', (chunk) => hash.update(chunk))
  stream.on('error', () => undefined)
  return Object.assign(stream, { file })
}

async function* jsonlRows(file: string, path: string, hash: Hash): AsyncGenerator<ReadRow> {
  const stream = hashedStream(file, path, hash)
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  let line = 0
  try {
    for await (const text of lines) {
      line++
      if (line === 1 && text.charCodeAt(0) === 0xfeff) continue
      if (text.trim() === '') continue
      let row: unknown
      try {
        row = JSON.parse(text)
      } catch (error) {
        refuseRow({ file, line }, undefined, `is not JSON (${(error as Error).message})`)
      }
      yield { row, place: { file, line } }
    }
  } catch (error) {
    if (error instanceof InvalidDatasetError) throw error
    refuseFile(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`)
  } finally {
    stream.destroy()
  }
}

async function* csvRows(file: string, path: string, hash: Hash): AsyncGenerator<ReadRow> {
  // csv-parse is loaded by the first CSV dataset, not by every worker that imports the suite API
  const { parse: csvParser, CsvError: CsvErrorClass } = await import('csv-parse')
  const stream = hashedStream(file, path, hash)
  const parser = csvParser({ columns: true, info: true, bom: true, skip_empty_lines: true })
  stream.on('error', (error) => parser.destroy(error))
  stream.pipe(parser)
  let previous = { lines: 1, empty: 0 }
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; records: number; empty_lines: number } }>) {
      const line = previous.lines + 1 + (info.empty_lines - previous.empty)
      previous = { lines: info.lines, empty: info.empty_lines }
      yield { row: record, place: { file, row: info.records, line } }
    }
  } catch (error) {
    if (error instanceof InvalidDatasetError) throw error
    if (error instanceof CsvErrorClass) {
      const e = error as CsvError & { lines?: number; records?: number }
      refuseRow({ file, row: (e.records ?? 0) + 1, line: e.lines ?? 0 }, undefined, `is not a CSV row of the header's columns (${e.message})`)
    }
    refuseFile(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`)
  } finally {
    stream.destroy()
  }
}

/** A JSON file (an array) or a file that is one case; both are read whole. */
async function* wholeFileRows(file: string, path: string, format: 'json' | 'file', hash: Hash): AsyncGenerator<ReadRow> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    refuseFile(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`)
  }
  hash.update(bytes)
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  if (format === 'file') {
    yield { row: { path: file, text }, place: { file } }
    return
  }
  let rows: unknown
  try {
    rows = JSON.parse(text)
  } catch (error) {
    refuseFile(file, `is not JSON (${(error as Error).message})`)
  }
  if (!Array.isArray(rows)) refuseFile(file, 'is not a JSON array of rows (a JSON dataset is one array; use JSONL for one row per line)')
  for (const [index, row] of rows.entries()) yield { row, place: { file, index } }
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
