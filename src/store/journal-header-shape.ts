// A journal header checked by hand (ADR 0559), as src/document/fast-shape.ts checks a run document's:
// yes only where journalHeaderSchema would accept the fields and give them back unchanged. Anything
// else goes to zod, which refuses with its message and path, or strips, as it always did.
import {
  inShapeOrder,
  isCount,
  isJudgeConfig,
  isObject,
  isPlainRecord,
  isPositiveCount,
  isShape,
  isSlice,
  isString,
  isStringOrNull,
  isStringRecord,
  isVariant,
  knownKeysOnly,
} from '../document/fast-shape.js'
import type { JournalHeader } from './journal.js'

/** Header fields in the order they are written. */
// journalHeaderSchema's shape, written out so encoding and the check need no zod (ADR 0430); test/unit/document/schema-keys.test.ts holds them equal.
export const HEADER_FIELDS: readonly (keyof JournalHeader)[] = [
  'journal_version',
  'leg',
  'created_at',
  'started_at',
  'digline_version',
  'tenant',
  'environment',
  'suite',
  'config_hash',
  'cases_digest',
  'artifacts',
  'target_config',
  'judge_config',
  'record_responses',
  'git_commit',
  'lease',
  'shard',
  'datasets',
  'slice',
  'variant',
]

/** The lease's fields in the order they are written; the schema's is a strict object of these. */
export const LEASE_FIELDS: readonly (keyof JournalHeader['lease'])[] = ['host', 'boot', 'pid', 'start_time']

const HEADER_FIELD_SET: ReadonlySet<string> = new Set(HEADER_FIELDS)
const SHARD = /^[1-9][0-9]*\/[1-9][0-9]*$/

function isLease(value: unknown): boolean {
  return (
    isShape(value, LEASE_FIELDS) && isString(value.host) && isStringOrNull(value.boot) && isPositiveCount(value.pid) && (value.start_time === null || isCount(value.start_time))
  )
}

function hasHeaderFields(value: Readonly<Record<string, unknown>>): boolean {
  if (!Number.isSafeInteger(value.journal_version) || !isPositiveCount(value.leg)) return false
  if (!isString(value.created_at) || !isString(value.started_at) || !isString(value.digline_version)) return false
  if (!isString(value.tenant) || !isString(value.environment) || !isString(value.suite) || !isString(value.config_hash) || !isString(value.cases_digest)) return false
  if (!isStringRecord(value.artifacts) || !isPlainRecord(value.target_config) || !isJudgeConfig(value.judge_config)) return false
  if (typeof value.record_responses !== 'boolean' || !isStringOrNull(value.git_commit) || !isLease(value.lease)) return false
  if (value.shard !== undefined && !(typeof value.shard === 'string' && SHARD.test(value.shard))) return false
  if (value.datasets !== undefined && !isStringRecord(value.datasets)) return false
  return (value.slice === undefined || isSlice(value.slice)) && (value.variant === undefined || isVariant(value.variant))
}

/**
 * The header's fields (a header record without its `kind`) as journalHeaderSchema would give them
 * back, in the schema's order, or undefined when only zod can say.
 */
export function fastJournalHeader(fields: unknown): JournalHeader | undefined {
  if (!isObject(fields) || !knownKeysOnly(fields, HEADER_FIELD_SET) || !hasHeaderFields(fields)) return undefined
  return inShapeOrder<JournalHeader>(fields, HEADER_FIELDS)
}
