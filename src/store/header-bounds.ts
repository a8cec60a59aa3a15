// The bounds of a run's headers, part of the Store contract (every backend writes within them, so a
// run moves between backends by export and import): a header that would not fit the prefix a reader
// takes is refused at start, before any call, so nothing digline writes is unlistable or undeletable
// by digline (SPEC §4). The file store's readers take exactly these prefixes.
import { HeaderTooLargeError } from './errors.js'
import type { RunHeader } from '../document/schema.js'
import { documentHeaderBytes } from '../document/serialize.js'
import type { JournalHeader } from './journal.js'

/** The most of a run document a header read takes: its header, up to the aggregates marker, lies within it. */
export const HEADER_PREFIX_LIMIT_BYTES = 1024 * 1024

/** The most of a journal leg its header read takes: the header line, newline included, lies within it. */
export const JOURNAL_HEADER_LIMIT_BYTES = 64 * 1024

export { OBSERVED_RESERVE_BYTES } from '../document/observed-limit.js'

function largestField(fields: Record<string, unknown>): { field: string; bytes: number } {
  let largest = { field: '(none)', bytes: 0 }
  for (const [field, value] of Object.entries(fields)) {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
    if (bytes > largest.bytes) largest = { field, bytes }
  }
  return largest
}

function refusal(what: string, size: number, limit: number, fields: Record<string, unknown>, suite: string): HeaderTooLargeError {
  const { field, bytes } = largestField(fields)
  return new HeaderTooLargeError(
    `refused suite ${suite}: its ${what} would be ${size} bytes, over the ${limit} bytes that listing and deleting read of it; its largest field is ${field} (${bytes} bytes). Nothing was called or written`,
    `make ${field} smaller (a long prompt belongs in an artifact file; large metadata in a file the suite reads), then run \`vitest run\` again`,
    [field],
  )
}

/** The journal header line, newline included, must lie within the prefix the delete's liveness check reads. */
export function assertJournalHeaderWithinBound(header: JournalHeader, lineBytes: number): void {
  if (lineBytes <= JOURNAL_HEADER_LIMIT_BYTES) return
  throw refusal('journal header', lineBytes, JOURNAL_HEADER_LIMIT_BYTES, { ...header }, header.suite)
}

/** The document header, up to the aggregates marker, must lie within the prefix the header readers take. */
export function assertDocumentHeaderWithinBound(header: RunHeader, reserve = 0): void {
  const size = documentHeaderBytes(header) + reserve
  if (size <= HEADER_PREFIX_LIMIT_BYTES) return
  throw refusal('run document header', size, HEADER_PREFIX_LIMIT_BYTES, { ...header }, header.suite)
}
