// The few header fields a delete needs, read from a bounded prefix with no schema: so a document at
// another schema_version is still recognised, and the results are never parsed.
import { parseHeaderPrefix } from '../../document/serialize.js'
import { keyFor } from '../../suite/keys.js'
import type { FsLayer } from './fs-layer.js'
import { HEADER_PREFIX_LIMIT_BYTES, HEADER_READ_BYTES } from './header-reader.js'
import { unreadableRun } from '../run-checks.js'

export interface LightHeader {
  /** key_of(created_at, config_hash): what the document says it is, whatever its file is named. */
  key: string
  created_at: string
  config_hash: string
  tenant: string | undefined
  suite: string | undefined
  rejudged_from: string | undefined
  rejudged_from_suite: string | undefined
}

function parsed(text: string, file: string, whole: boolean): unknown {
  try {
    return whole ? JSON.parse(text) : parseHeaderPrefix(text)
  } catch (error) {
    throw unreadableRun(file, `its header is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** Refuses (UnreadableRunError) a file that is not a JSON object carrying created_at and config_hash as text. */
export async function readLightHeader(fs: FsLayer, file: string): Promise<LightHeader> {
  let value: unknown
  for (const limit of HEADER_READ_BYTES) {
    const { bytes, fileSize } = await fs.readPrefix(file, limit)
    const text = bytes.toString('utf8')
    value = parsed(text, file, false)
    if (value === undefined && fileSize <= bytes.length) value = parsed(text, file, true)
    if (value !== undefined) break
  }
  if (value === undefined) throw unreadableRun(file, `no header was found in its first ${HEADER_PREFIX_LIMIT_BYTES} bytes`)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unreadableRun(file, 'it is not a JSON object')
  const header = value as Record<string, unknown>
  const { created_at, config_hash } = header
  if (typeof created_at !== 'string' || typeof config_hash !== 'string') {
    throw unreadableRun(file, 'it lacks created_at or config_hash, so the key it belongs to cannot be known')
  }
  return {
    key: keyFor(created_at, config_hash),
    created_at,
    config_hash,
    tenant: optionalText(header.tenant),
    suite: optionalText(header.suite),
    rejudged_from: optionalText(header.rejudged_from),
    rejudged_from_suite: optionalText(header.rejudged_from_suite),
  }
}
