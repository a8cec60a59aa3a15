// A hand-written check of the run document's canonical shapes, for data read from a file or the
// database (values JSON.parse returned). It says yes only where the zod schema would accept the
// value AND give it back unchanged: same keys in the same order, nothing stripped. Anything else
// (an unknown key, keys out of order, a `__proto__` key, an invalid value) is a no, and the caller
// asks the zod schema, which strips, refuses with its message and path, or copies as it always did.
import type { z } from 'zod'
import { baselineDocumentSchema, KEY_PATTERN, type BaselineDocument } from './baseline.js'
import { HEADER_KEYS, type Aggregates, type CaseResult, type Observed, type RunDocument, type RunHeader } from './schema.js'
import { isCreatedAt } from '../suite/keys.js'
import { isCanonicalSampleAnswer, isCanonicalUsage as isUsage, keysInOrder } from './answer-shape.js'

type Shape = Readonly<Record<string, unknown>>

// The schemas' shapes, written out so the check needs no zod (ADR 0430); test/unit/document/schema-keys.test.ts holds them equal.
export const CASE_KEYS: readonly string[] = [
  'case_id',
  'verdict',
  'score',
  'passed_samples',
  'reason',
  'error',
  'samples',
  'sampling_stopped',
  'target_cost',
  'tags',
  'metadata',
  'cluster',
  'input',
  'expected',
]
export const SAMPLE_KEYS: readonly string[] = ['pass', 'score', 'scorers', 'usage', 'latency_ms', 'cached', 'output', 'steps', 'turns']
export const SCORER_KEYS: readonly string[] = ['name', 'pass', 'score', 'reason', 'usage', 'borderline']
export const ERROR_KEYS: readonly string[] = ['cause', 'message']
export const AGGREGATES_KEYS: readonly string[] = [
  'cases',
  'passed',
  'failed',
  'errored',
  'pass_rate',
  'pass_rate_ci95',
  'mean_score',
  'samples_per_case',
  'samples_taken',
  'usage',
  'judge_usage',
  'cost',
]
export const INTERVAL_KEYS: readonly string[] = ['low', 'high']
export const COST_KEYS: readonly string[] = ['target', 'judge', 'total', 'unpriced']
export const RULES_KEYS: readonly string[] = ['samples', 'min_samples', 'min_agreement', 'thresholds', 'tolerances', 'gate_on', 'calibration']
export const THRESHOLDS_KEYS: readonly string[] = ['pass_rate', 'mean_score']
export const TOLERANCES_KEYS: readonly string[] = ['pass_rate', 'mean_score', 'cost_per_case', 'tokens_per_case', 'latency_per_case', 'tool_calls_per_case', 'steps_per_case']
export const CALIBRATION_KEYS: readonly string[] = ['min_labels', 'min_agreement']
export const JUDGE_CONFIG_KEYS: readonly string[] = ['scorers', 'simulated_user']
export const JUDGE_SCORER_KEYS: readonly string[] = ['name', 'config', 'pass_at']
export const OBSERVED_KEYS: readonly string[] = ['target_model', 'judge_models']
export const SLICE_KEYS: readonly string[] = ['tags', 'suite_cases']
export const VARIANT_KEYS: readonly string[] = ['suite', 'name', 'position']
export const DOCUMENT_KEYS: readonly string[] = [
  'schema_version',
  'digline_version',
  'tenant',
  'environment',
  'suite',
  'created_at',
  'config_hash',
  'rejudged_from',
  'rejudged_from_suite',
  'git_commit',
  'record_responses',
  'target_config',
  'judge_config',
  'artifacts',
  'metadata',
  'datasets',
  'slice',
  'variant',
  'rules',
  'observed',
  'cached_answers',
  'aggregates',
  'results',
]
export const BASELINE_KEYS: readonly string[] = [
  'schema_version',
  'digline_version',
  'tenant',
  'environment',
  'suite',
  'created_at',
  'config_hash',
  'rejudged_from',
  'rejudged_from_suite',
  'git_commit',
  'record_responses',
  'target_config',
  'judge_config',
  'artifacts',
  'metadata',
  'datasets',
  'slice',
  'variant',
  'rules',
  'observed',
  'cached_answers',
  'aggregates',
  'results',
  'promoted_at',
  'promoted_from',
]
const DOCUMENT_KEY_SET: ReadonlySet<string> = new Set(DOCUMENT_KEYS)
/** A document's keys before `results`, and before `aggregates`: the head a store writes, and the header it reads. */
const HEAD_KEYS: readonly string[] = DOCUMENT_KEYS.slice(0, DOCUMENT_KEYS.indexOf('results'))
const HEAD_KEY_SET: ReadonlySet<string> = new Set(HEAD_KEYS)
const BASELINE_KEY_SET: ReadonlySet<string> = new Set(BASELINE_KEYS)
const CONFIG_HASH = /^[0-9a-f]{12}$/

export function isObject(value: unknown): value is Shape {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isShape(value: unknown, order: readonly string[]): value is Shape {
  return isObject(value) && keysInOrder(value, order)
}

/** What zod's isPlainObject accepts and its record gives back whole: no `__proto__` key, which it drops. */
export function isPlainRecord(value: unknown): value is Shape {
  if (!isObject(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  for (const key in value) if (key === '__proto__' || !Object.hasOwn(value, key)) return false
  return true
}

/** What z.record(z.string(), z.string()) accepts and gives back whole. */
export function isStringRecord(value: unknown): value is Readonly<Record<string, string>> {
  if (!isObject(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  // isPlainRecord's walk and the values' check in one pass: a declaration holds a key per case.
  for (const key in value) if (key === '__proto__' || !Object.hasOwn(value, key) || typeof value[key] !== 'string') return false
  return true
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)
const isUnit = (x: unknown): boolean => typeof x === 'number' && x >= 0 && x <= 1
const isUnitOrNull = (x: unknown): boolean => x === null || isUnit(x)
export const isCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0
export const isPositiveCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) > 0
const isAmount = (x: unknown): boolean => typeof x === 'number' && x >= 0 && x < Infinity
export const isStringOrNull = (x: unknown): boolean => x === null || typeof x === 'string'
const optional = (x: unknown, check: (x: unknown) => boolean): boolean => x === undefined || check(x)

function isScorerScore(value: unknown): boolean {
  return (
    isShape(value, SCORER_KEYS) &&
    typeof value.name === 'string' &&
    typeof value.pass === 'boolean' &&
    isUnit(value.score) &&
    isStringOrNull(value.reason) &&
    optional(value.usage, isUsage) &&
    optional(value.borderline, (x) => x === true)
  )
}

function isSample(value: unknown): boolean {
  if (!isShape(value, SAMPLE_KEYS)) return false
  if (typeof value.pass !== 'boolean' || !isUnit(value.score) || !Array.isArray(value.scorers)) return false
  if (!isCanonicalSampleAnswer(value)) return false
  const scorers = value.scorers as unknown[]
  for (let i = 0; i < scorers.length; i++) if (!isScorerScore(scorers[i])) return false
  return true
}

function isCaseError(value: unknown): boolean {
  if (value === null) return true
  if (!isShape(value, ERROR_KEYS) || typeof value.message !== 'string') return false
  const cause = value.cause
  return cause === 'target' || cause === 'scorer' || cause === 'mapper'
}

/** Whether caseResultSchema accepts `value` and gives it back unchanged (input, expected and output are not looked into, as zod does not). */
export function isCanonicalCaseResult(value: unknown): value is CaseResult {
  if (!isShape(value, CASE_KEYS)) return false
  const verdict = value.verdict
  if (typeof value.case_id !== 'string' || (verdict !== 'pass' && verdict !== 'fail' && verdict !== 'error')) return false
  if (!isUnitOrNull(value.score) || !isCount(value.passed_samples) || !isStringOrNull(value.reason) || !isCaseError(value.error)) return false
  if (!Array.isArray(value.samples) || !optional(value.target_cost, isAmount)) return false
  if (!optional(value.tags, isStringList) || !optional(value.metadata, isPlainRecord)) return false
  if (!optional(value.cluster, (v) => typeof v === 'string')) return false
  if (!optional(value.sampling_stopped, (v) => v === 'settled' || v === 'max')) return false
  const samples = value.samples as unknown[]
  for (let i = 0; i < samples.length; i++) if (!isSample(samples[i])) return false
  return true
}

function isInterval(value: unknown): boolean {
  return value === null || (isShape(value, INTERVAL_KEYS) && isUnit(value.low) && isUnit(value.high))
}

function isCost(value: unknown): boolean {
  if (!isShape(value, COST_KEYS) || !isAmount(value.target) || !isAmount(value.judge) || !isAmount(value.total) || !Array.isArray(value.unpriced)) return false
  const unpriced = value.unpriced as unknown[]
  for (let i = 0; i < unpriced.length; i++) if (typeof unpriced[i] !== 'string') return false
  return true
}

function isAggregates(value: unknown): boolean {
  return (
    isShape(value, AGGREGATES_KEYS) &&
    isCount(value.cases) &&
    isCount(value.passed) &&
    isCount(value.failed) &&
    isCount(value.errored) &&
    isUnitOrNull(value.pass_rate) &&
    isInterval(value.pass_rate_ci95) &&
    isUnitOrNull(value.mean_score) &&
    isPositiveCount(value.samples_per_case) &&
    optional(value.samples_taken, isCount) &&
    optional(value.usage, isUsage) &&
    optional(value.judge_usage, isUsage) &&
    optional(value.cost, isCost)
  )
}

const isRise = (x: unknown): boolean => typeof x === 'number' && x >= 0 && x <= 100

function isCalibration(value: unknown): boolean {
  return isShape(value, CALIBRATION_KEYS) && isPositiveCount(value.min_labels) && typeof value.min_agreement === 'number' && value.min_agreement > 0 && value.min_agreement <= 1
}

function isRules(value: unknown): boolean {
  if (!isShape(value, RULES_KEYS) || !isPositiveCount(value.samples) || !optional(value.min_samples, isPositiveCount) || !isUnit(value.min_agreement)) return false
  const { thresholds, tolerances } = value
  return (
    isShape(thresholds, THRESHOLDS_KEYS) &&
    optional(thresholds.pass_rate, isUnit) &&
    optional(thresholds.mean_score, isUnit) &&
    isShape(tolerances, TOLERANCES_KEYS) &&
    optional(tolerances.pass_rate, isUnit) &&
    optional(tolerances.mean_score, isUnit) &&
    optional(tolerances.cost_per_case, isRise) &&
    optional(tolerances.tokens_per_case, isRise) &&
    optional(tolerances.latency_per_case, isRise) &&
    optional(tolerances.tool_calls_per_case, isRise) &&
    optional(tolerances.steps_per_case, isRise) &&
    optional(value.gate_on, (x) => x === 'samples') &&
    optional(value.calibration, isCalibration)
  )
}

export function isJudgeConfig(value: unknown): boolean {
  if (!isShape(value, JUDGE_CONFIG_KEYS) || !Array.isArray(value.scorers) || !optional(value.simulated_user, isPlainRecord)) return false
  for (const scorer of value.scorers as unknown[]) {
    if (!isShape(scorer, JUDGE_SCORER_KEYS) || typeof scorer.name !== 'string' || !isPlainRecord(scorer.config) || !isNumber(scorer.pass_at)) return false
  }
  return true
}

/** What observedSchema accepts and gives back unchanged. */
export function isCanonicalObserved(value: unknown): value is Observed {
  return isShape(value, OBSERVED_KEYS) && isStringOrNull(value.target_model) && isStringRecord(value.judge_models)
}

export const isString = (x: unknown): boolean => typeof x === 'string'

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false
  return true
}

export function isSlice(value: unknown): boolean {
  return isShape(value, SLICE_KEYS) && isStringList(value.tags) && isCount(value.suite_cases)
}

export function isVariant(value: unknown): boolean {
  return isShape(value, VARIANT_KEYS) && isString(value.suite) && isString(value.name) && optional(value.position, (x) => Number.isSafeInteger(x) && (x as number) >= 0)
}

function hasHeaderFields(value: Shape): boolean {
  if (value.schema_version !== 1) return false
  if (!isString(value.digline_version) || !isString(value.tenant) || !isString(value.environment) || !isString(value.suite)) return false
  if (typeof value.created_at !== 'string' || !isCreatedAt(value.created_at)) return false
  if (typeof value.config_hash !== 'string' || !CONFIG_HASH.test(value.config_hash)) return false
  if (!optional(value.rejudged_from, isString) || !optional(value.rejudged_from_suite, isString) || !optional(value.git_commit, isString)) return false
  if (typeof value.record_responses !== 'boolean' || !isPlainRecord(value.target_config) || !isPlainRecord(value.metadata)) return false
  if (!isJudgeConfig(value.judge_config) || !isStringRecord(value.artifacts) || !isRules(value.rules) || !isCanonicalObserved(value.observed)) return false
  if (!optional(value.cached_answers, isPositiveCount)) return false
  return optional(value.datasets, isStringRecord) && optional(value.slice, isSlice) && optional(value.variant, isVariant)
}

function hasDocumentFields(value: Shape): boolean {
  if (!hasHeaderFields(value) || !isAggregates(value.aggregates) || !Array.isArray(value.results)) return false
  const results = value.results as unknown[]
  for (let i = 0; i < results.length; i++) if (!isCanonicalCaseResult(results[i])) return false
  return true
}

/** Only keys of `known`; the top level may have them in any order (a baseline file puts its two fields before `aggregates`). */
export function knownKeysOnly(value: Shape, known: ReadonlySet<string>): boolean {
  for (const key in value) if (!known.has(key)) return false
  return true
}

/** The top level in shape order, as zod builds it; everything below it is the value itself. */
export function inShapeOrder<T>(value: Shape, order: readonly string[]): T {
  const out: Record<string, unknown> = {}
  for (const key of order) if (key in value) out[key] = value[key]
  return out as T
}

/** The document as runDocumentSchema would give it back, or undefined when only zod can say (refuse, strip or reorder). */
export function fastRunDocument(value: unknown): RunDocument | undefined {
  if (!isObject(value) || !knownKeysOnly(value, DOCUMENT_KEY_SET) || !hasDocumentFields(value)) return undefined
  return inShapeOrder<RunDocument>(value, DOCUMENT_KEYS)
}

/**
 * The header as runHeaderSchema would give it back, or undefined when only zod can say. A header read
 * from a document's first bytes may carry the `aggregates` that follow it (zod strips them, as this does).
 */
export function fastRunHeader(value: unknown): RunHeader | undefined {
  if (!isObject(value) || !knownKeysOnly(value, HEAD_KEY_SET) || !hasHeaderFields(value)) return undefined
  return inShapeOrder<RunHeader>(value, HEADER_KEYS)
}

/** The aggregates as aggregatesSchema would give them back (the value itself), or undefined when only zod can say. */
export function fastAggregates(value: unknown): Aggregates | undefined {
  return isAggregates(value) ? (value as Aggregates) : undefined
}

/** A document without its results (header and aggregates) as the zod head schema would give it back, or undefined when only zod can say. */
export function fastRunHead(value: unknown): Omit<RunDocument, 'results'> | undefined {
  if (!isObject(value) || !knownKeysOnly(value, HEAD_KEY_SET) || !hasHeaderFields(value) || !isAggregates(value.aggregates)) return undefined
  return inShapeOrder<Omit<RunDocument, 'results'>>(value, HEAD_KEYS)
}

/** baselineDocumentSchema.safeParse, checked by hand first when the value is in the canonical shape. */
export function safeParseBaseline(value: unknown): { success: true; data: BaselineDocument } | { success: false; error: z.ZodError } {
  const canonical = fastBaselineDocument(value)
  return canonical === undefined ? baselineDocumentSchema.safeParse(value) : { success: true, data: canonical }
}

/** The baseline as baselineDocumentSchema would give it back, or undefined when only zod can say. */
export function fastBaselineDocument(value: unknown): BaselineDocument | undefined {
  if (!isObject(value) || !knownKeysOnly(value, BASELINE_KEY_SET) || !hasDocumentFields(value)) return undefined
  if (typeof value.promoted_at !== 'string' || typeof value.promoted_from !== 'string' || !KEY_PATTERN.test(value.promoted_from)) return undefined
  return inShapeOrder<BaselineDocument>(value, BASELINE_KEYS)
}
