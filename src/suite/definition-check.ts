// Whether the suite definition schema (resolve-suite.ts) would accept a definition, said by hand so a
// valid suite never loads zod (ADR 0430). It says yes only where zod surely does; any doubt (an odd
// prototype, a symbol key, a value it does not look into the way zod does) goes to zod, whose refusal
// is the one the user reads.
import { isSafeSegment } from './safe-segment.js'
import { isTag } from './slice.js'

type Fields = Record<string, unknown>

/** z.object's own test: an object, not an array. */
const isObject = (x: unknown): x is Fields => typeof x === 'object' && x !== null && !Array.isArray(x)
/** What z.record(z.string(), …) surely accepts: a plain object with string keys only. */
const isRecord = (x: unknown): x is Fields => {
  if (!isObject(x)) return false
  const proto = Object.getPrototypeOf(x) as unknown
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(x, 'constructor') && Object.getOwnPropertySymbols(x).length === 0
}
const isFunction = (x: unknown): boolean => typeof x === 'function'
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)
const isUnit = (x: unknown): boolean => isNumber(x) && x >= 0 && x <= 1
const isRise = (x: unknown): boolean => isNumber(x) && x >= 0 && x <= 100
const isIntIn = (x: unknown, min: number, max: number): boolean => Number.isSafeInteger(x) && (x as number) >= min && (x as number) <= max
const isBoolean = (x: unknown): boolean => typeof x === 'boolean'
const optional = (x: unknown, check: (x: unknown) => boolean): boolean => x === undefined || check(x)
const optionalRecord = (x: unknown): boolean => x === undefined || isRecord(x)

/** z.strictObject's test: an object whose enumerable keys (own and inherited, as `for…in` sees them) are all `allowed`. */
function isStrict(x: unknown, allowed: readonly string[]): x is Fields {
  if (!isObject(x)) return false
  for (const key in x) if (!allowed.includes(key)) return false
  return true
}

function isArrayOf(x: unknown, check: (item: unknown) => boolean): x is unknown[] {
  if (!Array.isArray(x)) return false
  for (let i = 0; i < x.length; i++) if (!check(x[i])) return false
  return true
}

function isCase(x: unknown): boolean {
  if (!isObject(x) || !Object.hasOwn(x, 'input')) return false
  const c = x
  return isSafeSegment(c.id) && optionalRecord(c.metadata) && optional(c.tags, (t) => isArrayOf(t, isTag)) && optional(c.cluster, (s) => typeof s === 'string' && s.length > 0)
}

function isTarget(x: unknown): boolean {
  if (isFunction(x)) return true
  return isObject(x) && optionalRecord(x.config) && isFunction(x.ask)
}

function isSamples(x: unknown): boolean {
  if (isIntIn(x, 1, 1000)) return true
  return isStrict(x, ['min', 'max']) && isIntIn(x.min, 1, 1000) && isIntIn(x.max, 1, 1000) && (x.min as number) <= (x.max as number)
}

function isScorer(x: unknown): boolean {
  if (isFunction(x)) return true
  return isObject(x) && typeof x.name === 'string' && x.name.length > 0 && optionalRecord(x.config) && optional(x.passAt, isUnit) && isFunction(x.score)
}

const TOLERANCES = ['passRate', 'meanScore', 'costPerCase', 'tokensPerCase', 'latencyPerCase', 'toolCallsPerCase', 'stepsPerCase'] as const

function isTolerances(x: unknown): boolean {
  if (!isStrict(x, TOLERANCES)) return false
  return optional(x.passRate, isUnit) && optional(x.meanScore, isUnit) && TOLERANCES.slice(2).every((k) => optional(x[k], isRise))
}

function isPrices(x: unknown): boolean {
  if (!isRecord(x)) return false
  for (const [model, price] of Object.entries(x)) {
    if (model === '' || model === '__proto__' || !isStrict(price, ['input', 'output'])) return false
    if (!isNumber(price.input) || price.input < 0 || !isNumber(price.output) || price.output < 0) return false
  }
  return true
}

function isBudget(x: unknown): boolean {
  if (!isStrict(x, ['usd', 'calls'])) return false
  if (x.usd === undefined && x.calls === undefined) return false
  return optional(x.usd, (u) => isNumber(u) && u > 0) && optional(x.calls, (n) => isIntIn(n, 1, Number.MAX_SAFE_INTEGER))
}

/** True only when the definition schema accepts `definition`; false when it refuses or when only zod can say. */
export function definitionSurelyValid(definition: unknown): boolean {
  if (!isObject(definition)) return false
  const d = definition
  return (
    isSafeSegment(d.name) &&
    isArrayOf(d.cases, isCase) &&
    d.cases.length > 0 &&
    isTarget(d.target) &&
    optional(d.samples, isSamples) &&
    optional(d.minAgreement, isUnit) &&
    isArrayOf(d.scorers, isScorer) &&
    d.scorers.length > 0 &&
    optional(d.thresholds, (t) => isStrict(t, ['passRate', 'meanScore']) && optional(t.passRate, isUnit) && optional(t.meanScore, isUnit)) &&
    optional(d.tolerances, isTolerances) &&
    optional(d.gateOn, (g) => g === 'verdicts' || g === 'samples') &&
    optional(
      d.calibration,
      (c) => isStrict(c, ['minLabels', 'minAgreement']) && isIntIn(c.minLabels, 1, 1_000_000) && isNumber(c.minAgreement) && c.minAgreement > 0 && c.minAgreement <= 1,
    ) &&
    optional(d.cluster, isFunction) &&
    optional(d.recordResponses, isBoolean) &&
    optional(d.borderline, (b) => isNumber(b) && b > 0 && b < 0.5) &&
    optional(d.concurrency, (n) => isIntIn(n, 1, 1024)) &&
    optional(d.artifacts, (a) => isArrayOf(a, (p) => typeof p === 'string' && p.length > 0 && !p.startsWith('!'))) &&
    optionalRecord(d.metadata) &&
    optional(d.timeout, (n) => isIntIn(n, 0, Number.MAX_SAFE_INTEGER)) &&
    optional(d.prices, isPrices) &&
    optional(d.budget, isBudget) &&
    optional(d.cache, isBoolean) &&
    optional(d.toolReplay, (m) => m === 'off' || m === 'record' || m === 'replay' || m === 'strict')
  )
}
