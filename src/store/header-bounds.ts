// The bounds the readers of headers use, enforced first by the writers: a header that would not fit
// the prefix a reader takes is refused at start, before any call, so nothing digline writes is
// unlistable or undeletable by digline (SPEC §4).
import { HeaderTooLargeError } from './errors.js'
import type { RunHeader } from '../document/schema.js'
import { documentHeaderBytes } from '../document/serialize.js'
import { HEADER_PREFIX_LIMIT_BYTES } from './file/header-reader.js'
import type { JournalHeader } from './journal.js'
import { JOURNAL_HEADER_LIMIT_BYTES } from './file/leg-peek.js'

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
