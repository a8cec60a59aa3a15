// What every reader of run documents checks, in one order: JSON, schema version, schema, then that
// the document is filed where it says it belongs (tenant, suite, and a file name that is its key).
import { dirname, join } from 'node:path'
import type { z } from 'zod'
import { fastAggregates, fastRunDocument, fastRunHeader } from '../document/fast-shape.js'
import { aggregatesSchema, runDocumentSchema, runHeaderSchema, SCHEMA_VERSION, type Aggregates, type RunDocument, type RunHeader } from '../document/schema.js'
import { MisfiledRunError, SuiteMismatchError, TenantMismatchError, UnknownSchemaVersionError, UnreadableRunError } from './errors.js'
import { describeZodError } from '../suite/issue-sentence.js'
import { keyFor } from '../suite/keys.js'
import { isSafeSegment } from '../suite/safe-segment.js'

export interface RunPlace {
  tenant: string
  suite: string
  /** The file's name without `.json`: the key it is filed under. */
  fileKey: string
  file: string
}

export function unreadableRun(file: string, why: string, path: readonly (string | number)[] = []): UnreadableRunError {
  return new UnreadableRunError(`refused to read the run document ${file}: ${why}`, `inspect ${file}; restore it from its source or remove it`, path)
}

export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw unreadableRun(file, `it is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}

function assertKnownSchemaVersion(value: unknown, file: string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unreadableRun(file, 'it is not a JSON object')
  const version = (value as { schema_version?: unknown }).schema_version
  if (typeof version === 'number' && version !== SCHEMA_VERSION) {
    throw new UnknownSchemaVersionError(
      `refused to read the run document ${file}: its schema_version is ${version}, and this digline reads schema_version ${SCHEMA_VERSION}`,
      `upgrade digline to a version that reads schema_version ${version}; ${file} is left as it is`,
      ['schema_version'],
    )
  }
}

/**
 * A document that fails the schema is refused, on read and on write alike: the store cannot know
 * who built a document handed to it (the public `digline/store` API, an import), so it treats it as
 * input; the message still says that one digline built itself is a defect to report.
 */
function schemaProblem(file: string, value: unknown, error: z.ZodError, purpose: 'read' | 'write'): UnreadableRunError {
  const { path, sentence } = describeZodError(error, value, 'document')
  const why = `it does not match the run document schema: ${sentence}`
  if (purpose === 'read') return unreadableRun(file, why, path)
  return new UnreadableRunError(
    `refused to write ${file}: ${why}; nothing was written`,
    `fix ${path.join('.') || 'the document'} where the document is built (a document digline built itself is a defect of digline: report it with this message)`,
    path,
  )
}

/** The aggregates beside a header when they are valid; never a reason to refuse the run. */
export function validAggregates(value: unknown): Aggregates | undefined {
  const canonical = fastAggregates(value)
  if (canonical !== undefined) return canonical
  const parsed = aggregatesSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

export function validateHeader(value: unknown, file: string): RunHeader {
  assertKnownSchemaVersion(value, file)
  const canonical = fastRunHeader(value)
  if (canonical !== undefined) return canonical
  const parsed = runHeaderSchema.safeParse(value)
  if (!parsed.success) throw schemaProblem(file, value, parsed.error, 'read')
  return parsed.data
}

/**
 * `file` names the document in messages; when writing, it is a description, not a path. A document
 * read in the canonical shape is checked by hand and kept as parsed; zod decides everything else.
 */
export function validateDocument(value: unknown, file: string, purpose: 'read' | 'write' = 'read'): RunDocument {
  if (purpose === 'read') {
    assertKnownSchemaVersion(value, file)
    const canonical = fastRunDocument(value)
    if (canonical !== undefined) return canonical
  }
  const parsed = runDocumentSchema.safeParse(value)
  if (!parsed.success) throw schemaProblem(file, value, parsed.error, purpose)
  return parsed.data
}

/** The header fields that say which run a document is. */
export type RunIdentity = Pick<RunHeader, 'tenant' | 'suite' | 'created_at' | 'config_hash'>

export function ownKeyOf(header: Pick<RunHeader, 'created_at' | 'config_hash'>): string {
  return keyFor(header.created_at, header.config_hash)
}

/** Refuses a document of another tenant or suite, or filed under a name that is not its key. */
export function assertFiledUnder(header: RunIdentity, place: RunPlace): void {
  if (header.tenant !== place.tenant) {
    throw new TenantMismatchError(
      `refused the run document ${place.file}: it is filed under tenant ${JSON.stringify(place.tenant)} but belongs to tenant ${JSON.stringify(header.tenant)}`,
      `move ${place.file} under the tenant ${JSON.stringify(header.tenant)}, or remove it`,
      ['tenant'],
    )
  }
  if (header.suite !== place.suite) {
    throw new SuiteMismatchError(
      `refused the run document ${place.file}: it is filed under suite ${JSON.stringify(place.suite)} but belongs to suite ${JSON.stringify(header.suite)}`,
      `move ${place.file} under the suite ${JSON.stringify(header.suite)}, or remove it`,
      ['suite'],
    )
  }
  const ownKey = ownKeyOf(header)
  if (ownKey !== place.fileKey) {
    throw new MisfiledRunError(
      `refused the run document ${place.file}: it is filed under ${place.fileKey} but its key is ${ownKey} (created_at ${header.created_at}, config_hash ${header.config_hash})`,
      isSafeSegment(ownKey) ? `mv ${place.file} ${join(dirname(place.file), `${ownKey}.json`)} (or remove it)` : `rm ${place.file} (its own key is not a safe file name)`,
      ['created_at'],
    )
  }
}
