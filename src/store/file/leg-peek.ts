// The header of one journal leg, read leniently from its first line: who writes it and when its run
// began. A leg that cannot be read this way says nothing, and is still its key's (removed by name).
import type { FsLayer } from './fs-layer.js'
import { decodeLine, type RunBinding } from '../journal-format.js'
import type { Lease } from '../journal.js'
import { JOURNAL_HEADER_LIMIT_BYTES } from '../header-bounds.js'

export interface LegPeek {
  lease: Lease
  started_at: string
  created_at: string
}

/** The bytes of a leg read for its header: the contract's bound, which every writer keeps to. */
export { JOURNAL_HEADER_LIMIT_BYTES }

export async function peekLegHeader(fs: FsLayer, file: string, binding: RunBinding): Promise<LegPeek | undefined> {
  try {
    if (!(await fs.lstat(file)).isFile()) return undefined
    const { bytes } = await fs.readPrefix(file, JOURNAL_HEADER_LIMIT_BYTES)
    const end = bytes.indexOf(0x0a)
    if (end < 0) return undefined
    const line = bytes.subarray(0, end)
    const decoded = decodeLine(line, binding)
    if (!decoded.ok) return peekOlderHeader(line)
    if (decoded.record.kind !== 'header') return undefined
    const { lease, started_at, created_at } = decoded.record.header
    return { lease, started_at, created_at }
  } catch {
    return undefined
  }
}

/**
 * A journal_version 1 header (host and pid, no lease, a checksum not bound to its run): read as far
 * as a delete needs it, so its run's removal record keeps created_at and a live v1 writer still
 * blocks (judged by host and pid, as that version was).
 */
function peekOlderHeader(line: Buffer): LegPeek | undefined {
  try {
    const value = JSON.parse(line.toString('utf8', line.indexOf(0x20) + 1)) as Record<string, unknown>
    if (value.kind !== 'header' || value.journal_version !== 1) return undefined
    const { host, pid, started_at, created_at } = value
    if (typeof host !== 'string' || typeof pid !== 'number' || typeof created_at !== 'string') return undefined
    return { lease: { host, boot: null, pid, start_time: null }, started_at: typeof started_at === 'string' ? started_at : created_at, created_at }
  } catch {
    return undefined
  }
}
