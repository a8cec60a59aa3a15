// The journal's bytes. One record is one line: `<checksum, 8 lowercase hex> <JSON>\n`, where the
// checksum is the CRC-32 of the run's binding (`<tenant>/<suite>/<key>\n`) followed by the JSON, so
// verifying a line hashes exactly the bytes that were written, and a line copied from another run's
// journal does not verify here. Every record but the header also names its run. Line 1 of a leg is
// the header, line 2 the declared cases; then `observed` and `case` records. A case record's payload
// is the run document's own serializer.
import * as zlib from 'node:zlib'
import type { z } from 'zod'
import { lazySchema, zodNow } from '../suite/zod-on-demand.js'
import { isCanonicalCaseResult, isCanonicalObserved, isStringRecord } from '../document/fast-shape.js'
import { fastJournalHeader, HEADER_FIELDS, LEASE_FIELDS } from './journal-header-shape.js'
import { caseResultSchema, judgeConfigSchema, observedSchema, type CaseResult, type ErrorCause, type Observed } from '../document/schema.js'
import { caseToJson } from '../document/serialize.js'
import { isSafeSegment } from '../suite/safe-segment.js'
import { JOURNAL_VERSION, type DeclaredCases, type JournalHeader } from './journal.js'

export const journalHeaderSchema = lazySchema(
  (z) =>
    z.object({
      journal_version: z.number().int(),
      leg: z.number().int().positive(),
      created_at: z.string(),
      started_at: z.string(),
      digline_version: z.string(),
      tenant: z.string(),
      environment: z.string(),
      suite: z.string(),
      config_hash: z.string(),
      cases_digest: z.string(),
      artifacts: z.record(z.string(), z.string()),
      target_config: z.record(z.string(), z.unknown()),
      judge_config: judgeConfigSchema,
      record_responses: z.boolean(),
      git_commit: z.string().nullable(),
      lease: z.strictObject({
        host: z.string(),
        boot: z.string().nullable(),
        pid: z.number().int().positive(),
        start_time: z.number().int().nonnegative().nullable(),
      }),
      shard: z
        .string()
        .regex(/^[1-9][0-9]*\/[1-9][0-9]*$/)
        .optional(),
      datasets: z.record(z.string(), z.string()).optional(),
      slice: z.object({ tags: z.array(z.string()), suite_cases: z.number().int().nonnegative() }).optional(),
      variant: z.object({ suite: z.string(), name: z.string(), position: z.number().int().nonnegative().optional() }).optional(),
    }) satisfies z.ZodType<JournalHeader>,
)

const declaredCasesSchema = lazySchema(
  (z) =>
    z.object({
      samples: z.number().int().positive(),
      min_samples: z.number().int().positive().optional(),
      digests: z.record(z.string(), z.string()),
    }) satisfies z.ZodType<DeclaredCases>,
)

/** The run a journal belongs to; every record's checksum covers it. */
export interface RunBinding {
  tenant: string
  suite: string
  key: string
}

export type JournalRecord =
  | { kind: 'header'; header: JournalHeader }
  | { kind: 'cases'; declared: DeclaredCases }
  | { kind: 'observed'; observed: Observed }
  | { kind: 'case'; cause: ErrorCause | null; result: CaseResult }

export type DecodedLine =
  | { ok: true; record: JournalRecord }
  | { ok: false; why: string }
  /** A header written by another journal format; nothing else in the leg can be read. */
  | { ok: false; why: string; unknownVersion: unknown }

// ── checksum ────────────────────────────────────────────────────────────────────────────────────

let crcTable: Uint32Array | undefined

/** CRC-32 (IEEE, as zlib), for Node < 20.15 where zlib.crc32 does not exist; `initial` continues the CRC of bytes before `data`. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let crc = (initial ^ 0xffffffff) >>> 0
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32
// Node's crc32 gives 0 for some empty buffers (one from randomBytes(0)) whatever the starting value.
export const crc32: (data: Uint8Array, initial?: number) => number =
  nativeCrc32 === undefined ? crc32Portable : (data, initial = 0) => (data.length === 0 ? initial >>> 0 : nativeCrc32(data, initial))

const CHECKSUM_HEX = 8
/** Where a line's JSON starts: after the checksum and its space. */
export const BODY_START = CHECKSUM_HEX + 1
const SPACE = 0x20

function bindingBytes(binding: RunBinding): Buffer {
  return Buffer.from(`${binding.tenant}/${binding.suite}/${binding.key}\n`, 'utf8')
}

let lastBinding: (RunBinding & { crc: number }) | undefined

/** The CRC-32 of the binding's bytes, kept for the binding of the last call (a leg's lines all share one). */
function bindingCrc(binding: RunBinding): number {
  const last = lastBinding
  if (last !== undefined && last.key === binding.key && last.suite === binding.suite && last.tenant === binding.tenant) return last.crc
  const crc = crc32(bindingBytes(binding))
  lastBinding = { tenant: binding.tenant, suite: binding.suite, key: binding.key, crc }
  return crc
}

/** CRC-32 of the binding followed by the body, without joining them. */
export function checksumOf(binding: RunBinding, body: Uint8Array): number {
  return crc32(body, bindingCrc(binding))
}

// ── encoding ────────────────────────────────────────────────────────────────────────────────────

const CHECKSUM_PLACE = '0'.repeat(CHECKSUM_HEX) + ' '
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1')

/**
 * One record's line: checksum, space, the JSON, newline. JSON.stringify never emits a raw newline.
 * The line is encoded once with a placeholder checksum, which is then written over in lower-case hex.
 */
export function encodeLine(binding: RunBinding, json: string): Buffer {
  const line = Buffer.from(CHECKSUM_PLACE + json + '\n', 'utf8')
  let checksum = checksumOf(binding, line.subarray(BODY_START, line.length - 1))
  for (let i = CHECKSUM_HEX - 1; i >= 0; i--) {
    line[i] = HEX_DIGITS[checksum & 0xf]!
    checksum >>>= 4
  }
  return line
}

export function encodeHeader(binding: RunBinding, header: JournalHeader): Buffer {
  const record: Record<string, unknown> = { kind: 'header' }
  for (const field of HEADER_FIELDS) record[field] = field === 'lease' ? leaseInOrder(header.lease) : header[field]
  return encodeLine(binding, JSON.stringify(record))
}

function leaseInOrder(lease: JournalHeader['lease']): JournalHeader['lease'] {
  const record: Record<string, unknown> = {}
  for (const field of LEASE_FIELDS) record[field] = lease[field]
  return record as unknown as JournalHeader['lease']
}

/** Line 2 of a leg. */
export function encodeDeclared(binding: RunBinding, declared: DeclaredCases): Buffer {
  // min_samples only when adaptive, so a journal of fixed samples keeps its bytes.
  return encodeLine(binding, JSON.stringify({ kind: 'cases', run: binding.key, samples: declared.samples, min_samples: declared.min_samples, digests: declared.digests }))
}

/** The observed identities to compare the next append's with: a frozen snapshot as it is, anything else copied. */
export function heldObserved(observed: Observed): Observed {
  return Object.isFrozen(observed) && Object.isFrozen(observed.judge_models) ? observed : normalizeObserved(observed)
}

/** The observed identities with judge names sorted, so equal identities have equal bytes. */
export function normalizeObserved(observed: Observed): Observed {
  const judges: Record<string, string> = {}
  for (const name of Object.keys(observed.judge_models).sort()) judges[name] = observed.judge_models[name]!
  return { target_model: observed.target_model, judge_models: judges }
}

/** Equal identities have equal observed records: the judge names compared as a set, as the record sorts them. */
export function sameObserved(previous: Observed, next: Observed): boolean {
  // The driver hands one frozen snapshot until an id is pinned (ADR 0558).
  if (previous === next) return true
  if (previous.target_model !== next.target_model) return false
  const names = Object.keys(next.judge_models)
  if (names.length !== Object.keys(previous.judge_models).length) return false
  return names.every((name) => Object.hasOwn(previous.judge_models, name) && previous.judge_models[name] === next.judge_models[name])
}

export function encodeObserved(binding: RunBinding, observed: Observed): Buffer {
  return encodeLine(binding, JSON.stringify({ kind: 'observed', run: binding.key, observed: normalizeObserved(observed) }))
}

export function encodeCase(binding: RunBinding, result: CaseResult, cause: ErrorCause | null): Buffer {
  return encodeLine(binding, JSON.stringify({ kind: 'case', run: binding.key, cause, case: caseToJson(result) }))
}

// ── decoding ────────────────────────────────────────────────────────────────────────────────────

/** errorCauseSchema's options (test/unit/document/schema-keys.test.ts holds them equal). */
export const CAUSES: ReadonlySet<unknown> = new Set(['target', 'scorer', 'mapper'])

function isHexDigit(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function zodWhy(what: string, error: z.ZodError): string {
  const issue = error.issues[0]
  const where = (issue?.path ?? []).map(String).join('.')
  return `is not a valid ${what}${where === '' ? '' : ` at ${where}`}: ${issue?.message ?? 'invalid'}`
}

/** The checksum a line starting at bytes[start] carries: its 8 hex digits and the space after them, or -1. */
function checksumAt(bytes: Buffer, start: number): number {
  let expected = 0
  for (let i = start; i < start + CHECKSUM_HEX; i++) {
    const byte = bytes[i]!
    if (!isHexDigit(byte)) return -1
    expected = expected * 16 + (byte <= 0x39 ? byte - 0x30 : byte - 0x57)
  }
  return bytes[start + CHECKSUM_HEX] === SPACE ? expected : -1
}

let casePrefix: { key: string; bytes: Buffer } | undefined
/** What follows the cause in a case record, up to the opening quote of its case id. */
const CASE_ID_KEY = Buffer.from(',"case":{"case_id":"')
/** The causes a case record may carry, as encodeCase writes them. */
const CAUSE_TOKENS = ['null', ...[...CAUSES].map((cause) => JSON.stringify(cause))].map((token) => Buffer.from(token))
const QUOTE = 0x22
const BACKSLASH = 0x5c

function startsWith(bytes: Buffer, at: number, end: number, prefix: Buffer): boolean {
  return end - at >= prefix.length && bytes.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0
}

/**
 * The case id of the line at bytes[start, end) when it is a case record of `binding`'s run, as
 * encodeCase writes one, and its checksum verifies; the rest of the record is not parsed (ADR 0562).
 * Undefined for any other line: decodeLineIn reads that one whole, and words its refusal.
 */
export function verifiedCaseId(bytes: Buffer, start: number, end: number, binding: RunBinding): string | undefined {
  if (end - start <= BODY_START) return undefined
  const expected = checksumAt(bytes, start)
  if (expected < 0 || checksumOf(binding, bytes.subarray(start + BODY_START, end)) !== expected) return undefined
  if (casePrefix?.key !== binding.key) casePrefix = { key: binding.key, bytes: Buffer.from(`{"kind":"case","run":${JSON.stringify(binding.key)},"cause":`) }
  let at = start + BODY_START
  if (!startsWith(bytes, at, end, casePrefix.bytes)) return undefined
  at += casePrefix.bytes.length
  const cause = CAUSE_TOKENS.find((token) => startsWith(bytes, at, end, token))
  if (cause === undefined || !startsWith(bytes, at + cause.length, end, CASE_ID_KEY)) return undefined
  const open = at + cause.length + CASE_ID_KEY.length - 1
  let escaped = false
  let close = open + 1
  for (; close < end && bytes[close] !== QUOTE; close++) {
    if (bytes[close] === BACKSLASH) {
      escaped = true
      close++
    }
  }
  if (close >= end) return undefined
  if (!escaped) return bytes.toString('utf8', open + 1, close)
  try {
    const id: unknown = JSON.parse(bytes.toString('utf8', open, close + 1))
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/** One line without its newline, read as a record of `binding`'s run. `why` completes the sentence "line N …". */
export function decodeLine(line: Buffer, binding: RunBinding): DecodedLine {
  return decodeLineIn(line, 0, line.length, binding)
}

/**
 * The line at bytes[start, end) (its newline excluded), as decodeLine reads it. `json`, when given,
 * is that line's JSON already decoded as UTF-8 (a reader that decodes a whole leg at once hands each
 * line's slice), so the bytes are not decoded a second time.
 */
export function decodeLineIn(bytes: Buffer, start: number, end: number, binding: RunBinding, json?: string): DecodedLine {
  if (end - start <= BODY_START) return { ok: false, why: 'is too short to be a record' }
  const expected = checksumAt(bytes, start)
  if (expected < 0) return { ok: false, why: 'does not start with an 8-digit checksum' }
  const body = bytes.subarray(start + BODY_START, end)
  if (checksumOf(binding, body) !== expected) return { ok: false, why: checksumWhy(body, binding, expected) }
  let value: unknown
  try {
    value = JSON.parse(json ?? body.toString('utf8'))
  } catch (error) {
    return { ok: false, why: `is not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!isObject(value)) return { ok: false, why: 'is not a JSON object' }
  if (value.kind !== 'header' && value.run !== binding.key) {
    return {
      ok: false,
      why: `names run ${JSON.stringify(value.run) ?? 'undefined'}, not run ${binding.key}: it was not written by this run, and a record of another run is never merged`,
    }
  }
  switch (value.kind) {
    case 'header':
      return decodeHeader(value)
    case 'cases': {
      const declared = { samples: value.samples, min_samples: value.min_samples, digests: value.digests }
      // One digest per declared case: checked by hand, as zod would accept it and give it back; zod words a refusal.
      if (isCanonicalDeclared(declared)) return { ok: true, record: { kind: 'cases', declared } }
      const parsed = declaredCasesSchema.safeParse(declared)
      return parsed.success ? { ok: true, record: { kind: 'cases', declared: parsed.data } } : { ok: false, why: zodWhy('declared-cases record', parsed.error) }
    }
    case 'observed': {
      if (isCanonicalObserved(value.observed)) return { ok: true, record: { kind: 'observed', observed: value.observed } }
      const parsed = observedSchema.safeParse(value.observed)
      return parsed.success ? { ok: true, record: { kind: 'observed', observed: parsed.data } } : { ok: false, why: zodWhy('observed record', parsed.error) }
    }
    case 'case': {
      const cause = value.cause
      if (cause !== null && !CAUSES.has(cause))
        return { ok: false, why: `is not a valid case record at cause: ${JSON.stringify(cause) ?? 'undefined'} is not null or one of ${[...CAUSES].join(', ')}` }
      if (isCanonicalCaseResult(value.case)) return { ok: true, record: { kind: 'case', cause: cause as ErrorCause | null, result: value.case } }
      const parsed = caseResultSchema.safeParse(value.case)
      if (!parsed.success) return { ok: false, why: zodWhy('case record', prefixed(parsed.error, 'case')) }
      return { ok: true, record: { kind: 'case', cause: cause as ErrorCause | null, result: parsed.data } }
    }
    default:
      return { ok: false, why: `has an unknown kind ${JSON.stringify(value.kind) ?? 'undefined'}` }
  }
}

const isPositiveInteger = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) > 0

/** Whether declaredCasesSchema accepts the value and gives it back unchanged (the same keys, the digests whole). */
function isCanonicalDeclared(value: { samples: unknown; min_samples?: unknown; digests: unknown }): value is DeclaredCases {
  return isPositiveInteger(value.samples) && (value.min_samples === undefined || isPositiveInteger(value.min_samples)) && isStringRecord(value.digests)
}

/** Why a checksum failed: a record copied from another run's journal says so, since it verifies as that run's. */
function checksumWhy(body: Uint8Array, binding: RunBinding, expected: number): string {
  try {
    const value: unknown = JSON.parse(Buffer.from(body).toString('utf8'))
    if (isObject(value)) {
      const run = value.kind === 'header' ? undefined : value.run
      if (typeof run === 'string' && run !== binding.key && checksumOf({ ...binding, key: run }, body) === expected) {
        return `is a record of run ${run}, not of run ${binding.key}: it was copied from another run's journal, and a record of another run is never merged`
      }
      if (crc32(body) === expected)
        return `carries a checksum that does not bind it to run ${binding.key} of suite ${binding.suite} (tenant ${binding.tenant}): it was written by a journal of another format or copied from another run's journal, and is never merged`
    }
  } catch {
    // Not JSON: the bytes changed.
  }
  return `does not match its checksum for run ${binding.key} (its bytes changed after they were written, or it was copied from another run's journal)`
}

function prefixed(error: z.ZodError, key: string): z.ZodError {
  return new (zodNow().ZodError)(error.issues.map((issue) => ({ ...issue, path: [key, ...issue.path] })))
}

function decodeHeader(value: Record<string, unknown>): DecodedLine {
  const version = value.journal_version
  if (version !== JOURNAL_VERSION) return unknownVersion(version)
  const { kind: _kind, ...fields } = value
  const header = fastJournalHeader(fields)
  if (header !== undefined) return { ok: true, record: { kind: 'header', header } }
  const parsed = journalHeaderSchema.safeParse(fields)
  return parsed.success ? { ok: true, record: { kind: 'header', header: parsed.data } } : { ok: false, why: zodWhy('header', parsed.error) }
}

function unknownVersion(version: unknown): DecodedLine {
  return { ok: false, why: `has journal_version ${JSON.stringify(version) ?? 'undefined'}`, unknownVersion: version }
}

/**
 * Line 1 that this format cannot verify may still be another format's header: any journal format
 * ends its first line with a JSON object carrying journal_version. Such a leg is not corrupt, it is
 * unknown, and an unknown journal is never deleted.
 */
export function sniffUnknownVersion(line: Buffer): DecodedLine | undefined {
  const text = line.toString('utf8')
  const start = text.indexOf('{')
  if (start < 0) return undefined
  let value: unknown
  try {
    value = JSON.parse(text.slice(start))
  } catch {
    return undefined
  }
  if (!isObject(value) || !('journal_version' in value) || value.journal_version === JOURNAL_VERSION) return undefined
  return unknownVersion(value.journal_version)
}

// ── leg file names ──────────────────────────────────────────────────────────────────────────────

const LEG_NAME = /^(.+)\.([1-9][0-9]{0,8})\.jsonl$/

/** `<key>.<leg>.jsonl` as StorePaths.journalLegFile builds it; anything else is not a leg. */
export function parseLegName(name: string): { key: string; leg: number } | undefined {
  const match = LEG_NAME.exec(name)
  if (match === null || !isSafeSegment(match[1])) return undefined
  return { key: match[1], leg: Number(match[2]) }
}
