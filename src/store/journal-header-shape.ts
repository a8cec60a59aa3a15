// A journal header checked by hand (ADR 0559), as src/document/fast-shape.ts checks a run document's:
// yes only where journalHeaderSchema would accept the fields and give them back unchanged. Anything
// else goes to zod, which refuses with its message and path, or strips, as it always did.
import { isJudgeConfig, isPlainRecord, isSlice, isStringRecord, isVariant } from '../document/fast-shape.js'
import { keysInOrder } from '../document/answer-shape.js'
import type { JournalHeader } from './journal.js'

type Shape = Readonly<Record<string, unknown>>

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

const isString = (x: unknown): x is string => typeof x === 'string'
const isCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0
const isPositiveCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) > 0

function isObject(value: unknown): value is Shape {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isLease(value: unknown): boolean {
  if (!isObject(value) || !keysInOrder(value, LEASE_FIELDS)) return false
  return isString(value.host) && (value.boot === null || isString(value.boot)) && isPositiveCount(value.pid) && (value.start_time === null || isCount(value.start_time))
}

function hasHeaderFields(value: Shape): boolean {
  if (!Number.isSafeInteger(value.journal_version) || !isPositiveCount(value.leg)) return false
  if (!isString(value.created_at) || !isString(value.started_at) || !isString(value.digline_version)) return false
  if (!isString(value.tenant) || !isString(value.environment) || !isString(value.suite) || !isString(value.config_hash) || !isString(value.cases_digest)) return false
  if (!isStringRecord(value.artifacts) || !isPlainRecord(value.target_config) || !isJudgeConfig(value.judge_config)) return false
  if (typeof value.record_responses !== 'boolean' || (value.git_commit !== null && !isString(value.git_commit)) || !isLease(value.lease)) return false
  if (value.shard !== undefined && !(isString(value.shard) && SHARD.test(value.shard))) return false
  if (value.datasets !== undefined && !isStringRecord(value.datasets)) return false
  return (value.slice === undefined || isSlice(value.slice)) && (value.variant === undefined || isVariant(value.variant))
}

/**
 * The header's fields (a header record without its `kind`) as journalHeaderSchema would give them
 * back, in the schema's order, or undefined when only zod can say.
 */
export function fastJournalHeader(fields: unknown): JournalHeader | undefined {
  if (!isObject(fields)) return undefined
  for (const key in fields) if (!HEADER_FIELD_SET.has(key)) return undefined
  if (!hasHeaderFields(fields)) return undefined
  const out: Record<string, unknown> = {}
  for (const key of HEADER_FIELDS) if (key in fields) out[key] = fields[key]
  return out as unknown as JournalHeader
}
