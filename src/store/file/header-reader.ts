// Reads a run document's header from a bounded prefix of its file; the results are never parsed.
import { HEADER_KEYS, type Aggregates, type RunHeader } from '../../document/schema.js'
import { AGGREGATES_MARKER, parseHeaderPrefix } from '../../document/serialize.js'
import type { FsLayer } from './fs-layer.js'
import { parseJsonText, unreadableRun, validAggregates, validateHeader } from '../run-checks.js'
import { HEADER_PREFIX_LIMIT_BYTES } from '../header-bounds.js'

/** The contract's bound, which this reader's last read takes (re-exported for its tests). */
export { HEADER_PREFIX_LIMIT_BYTES }

/** The first read of a header: a header and its aggregates take 1–2 KB, so this one read almost always holds both. */
export const HEADER_PREFIX_BYTES = 8 * 1024
/** The aggregates that follow a header are looked for within this many bytes and no further. */
const AGGREGATES_WITHIN_BYTES = 64 * 1024
/** Each read when the one before was too short for the header: eight times longer, up to the limit. */
export const HEADER_READ_BYTES: readonly number[] = [HEADER_PREFIX_BYTES, 64 * 1024, HEADER_PREFIX_LIMIT_BYTES]

export interface RunHeaderRead {
  header: RunHeader
  /** The aggregates, when they are whole and valid within the bytes read; never a reason to refuse. */
  aggregates: Aggregates | undefined
  /** Bytes read from the file, summed over every read. */
  bytesRead: number
}

/**
 * The aggregates line that follows the header in digline's layout: its value when the prefix holds
 * all of it (undefined when it is not valid), or 'cut' when the line runs past the prefix.
 */
function aggregatesFromPrefix(text: string): Aggregates | undefined | 'cut' {
  const start = text.indexOf(AGGREGATES_MARKER)
  if (start < 0) return undefined
  const valueStart = start + AGGREGATES_MARKER.length
  const lineEnd = text.indexOf('\n', valueStart)
  if (lineEnd < 0) return 'cut'
  try {
    return validAggregates(JSON.parse(text.slice(valueStart, lineEnd).replace(/,\s*$/, '')))
  } catch {
    return undefined
  }
}

function headerFromPrefix(text: string, file: string): unknown {
  try {
    return parseHeaderPrefix(text)
  } catch (error) {
    throw unreadableRun(file, `its header is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}

/** A document not in digline's layout (no aggregates marker) but small enough to read whole. */
function fromWholeDocument(text: string, file: string): { header: unknown; aggregates: unknown } {
  const value = parseJsonText(text, file)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { header: value, aggregates: undefined }
  const record = value as Record<string, unknown>
  const header: Record<string, unknown> = {}
  for (const key of HEADER_KEYS) if (key in record) header[key] = record[key]
  return { header, aggregates: record.aggregates }
}

export async function readRunHeader(fs: FsLayer, file: string): Promise<RunHeaderRead> {
  let bytesRead = 0
  for (const limit of HEADER_READ_BYTES) {
    const { bytes, fileSize } = await fs.readPrefix(file, limit)
    bytesRead += bytes.length
    const whole = fileSize <= bytes.length
    const text = bytes.toString('utf8')
    const fromPrefix = headerFromPrefix(text, file)
    if (fromPrefix !== undefined) {
      const aggregates = aggregatesFromPrefix(text)
      if (aggregates === 'cut' && !whole && bytes.length < AGGREGATES_WITHIN_BYTES) continue
      return { header: validateHeader(fromPrefix, file), aggregates: aggregates === 'cut' ? undefined : aggregates, bytesRead }
    }
    if (whole) {
      const document = fromWholeDocument(text, file)
      return { header: validateHeader(document.header, file), aggregates: validAggregates(document.aggregates), bytesRead }
    }
  }
  throw unreadableRun(file, `no header was found in its first ${HEADER_PREFIX_LIMIT_BYTES} bytes (is "aggregates" missing, or the header out of order?)`)
}
