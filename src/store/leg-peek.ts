// The header of one journal leg, read leniently from its first line: who writes it and when its run
// began. A leg that cannot be read this way says nothing, and is still its key's (removed by name).
import type { FsLayer } from './fs-layer.js'
import { decodeLine, type RunBinding } from './journal-format.js'
import type { Lease } from './journal.js'

export interface LegPeek {
  lease: Lease
  started_at: string
  created_at: string
}

/** The bytes of a leg read for its header: the writer refuses a header line (newline included) longer than this. */
export const JOURNAL_HEADER_LIMIT_BYTES = 64 * 1024

export async function peekLegHeader(fs: FsLayer, file: string, binding: RunBinding): Promise<LegPeek | undefined> {
  try {
    if (!(await fs.lstat(file)).isFile()) return undefined
    const { bytes } = await fs.readPrefix(file, JOURNAL_HEADER_LIMIT_BYTES)
    const end = bytes.indexOf(0x0a)
    if (end < 0) return undefined
    const decoded = decodeLine(bytes.subarray(0, end), binding)
    if (!decoded.ok || decoded.record.kind !== 'header') return undefined
    const { lease, started_at, created_at } = decoded.record.header
    return { lease, started_at, created_at }
  } catch {
    return undefined
  }
}
