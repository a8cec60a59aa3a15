// The header of one journal leg, read leniently from its first line: who writes it and when its run
// began. A leg that cannot be read this way says nothing, and is still its key's (removed by name).
import type { FsLayer } from './fs-layer.js'
import { decodeLine } from './journal-format.js'

export interface LegPeek {
  host: string
  pid: number
  created_at: string
}

const FIRST_LINE_LIMIT = 64 * 1024

export async function peekLegHeader(fs: FsLayer, file: string): Promise<LegPeek | undefined> {
  try {
    if (!(await fs.lstat(file)).isFile()) return undefined
    const { bytes } = await fs.readPrefix(file, FIRST_LINE_LIMIT)
    const end = bytes.indexOf(0x0a)
    if (end < 0) return undefined
    const decoded = decodeLine(bytes.subarray(0, end))
    if (!decoded.ok || decoded.record.kind !== 'header') return undefined
    const { host, pid, created_at } = decoded.record.header
    return { host, pid, created_at }
  } catch {
    return undefined
  }
}
