// The trajectory scorer (SPEC §16): which tools an agent called, in what order, with which arguments
// (by value, or by a zod schema per tool), scored as the F1 of precision and recall over the expected
// calls, with limits on calls and steps. Its reason names the first missing or unexpected call; it
// quotes arguments only when the run records answers (SPEC §7).
import type { z } from 'zod'
import { zodNow } from '../suite/zod-on-demand.js'
import { InvalidSuiteError } from '../suite/errors.js'
import { canonicalJson } from '../suite/hashing.js'
import { describeZodError } from '../suite/issue-sentence.js'
import { modelCallsOf, toolCallsOf, type ToolCallStep } from '../suite/steps.js'
import type { JsonObject, ScorerObject } from '../suite/types.js'
import { kindOf, preview } from './reason-text.js'

/** A call the agent should make: a tool's name, or its name and the arguments it should be given. */
export type ExpectedToolCall = string | { name: string; args?: unknown }

export interface ToolCallsOptions {
  /** The calls expected of every case; default: the case's `expected` (a list of calls, or `{ toolCalls: [...] }`). */
  expected?: readonly ExpectedToolCall[]
  /**
   * `exact`: these calls and no other, in this order. `in-order` (default): these calls in this order,
   * others allowed between them. `any`: these calls in any order, others allowed.
   */
  order?: 'exact' | 'in-order' | 'any'
  /** Per tool, the arguments every expected call of it must have when it names none of its own: a value or a zod schema. */
  args?: Readonly<Record<string, unknown>>
  /** A value is matched as a `subset` (default: each key it gives is equal, by canonical JSON) or must be `equal` whole. */
  argsMatch?: 'subset' | 'equal'
  /** At most this many tool calls ("at most 6 tool calls"); more fails the sample. */
  maxCalls?: number
  /** At most this many steps (model calls); more fails the sample. */
  maxSteps?: number
  /** The scorer's name in results (default "tool_calls"). */
  name?: string
}

interface Expected {
  name: string
  /** A zod schema, a value, or nothing (any arguments). */
  args: { schema: z.ZodType } | { value: unknown } | undefined
}

const OWNER = 'scorers.toolCalls()'

export function toolCalls(options: ToolCallsOptions = {}): ScorerObject {
  const order = options.order ?? 'in-order'
  if (!['exact', 'in-order', 'any'].includes(order)) refuse('order', `must be 'exact', 'in-order' or 'any', got ${preview(order)}`)
  const argsMatch = options.argsMatch ?? 'subset'
  if (argsMatch !== 'subset' && argsMatch !== 'equal') refuse('argsMatch', `must be 'subset' or 'equal', got ${preview(argsMatch)}`)
  const limit = (value: number | undefined, field: string): number | undefined => {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) refuse(field, `must be a whole number ≥ 0, got ${preview(value)}`)
    return value
  }
  const maxCalls = limit(options.maxCalls, 'maxCalls')
  const maxSteps = limit(options.maxSteps, 'maxSteps')
  const perTool = options.args ?? {}
  if (perTool === null || typeof perTool !== 'object' || Array.isArray(perTool)) refuse('args', 'must be an object of arguments (a value or a zod schema) by tool name')
  const declared = options.expected === undefined ? undefined : expectedFrom(options.expected, perTool, 'expected')

  const config: JsonObject = {
    order,
    expected: declared === undefined ? 'from the case' : declared.map(callConfig),
    args: Object.fromEntries(
      Object.keys(perTool)
        .sort()
        .map((name) => [name, argsConfig(argsOf(perTool[name]))]),
    ),
    args_match: argsMatch,
  }
  if (maxCalls !== undefined) config.max_calls = maxCalls
  if (maxSteps !== undefined) config.max_steps = maxSteps

  return {
    name: options.name ?? 'tool_calls',
    config,
    async score({ expected, steps, recorded }) {
      const wanted = declared ?? expectedFrom(fromCase(expected), perTool, "the case's expected value", true)
      const calls = toolCallsOf(steps)
      const matches = (e: Expected, c: ToolCallStep): boolean => e.name === c.name && argsFit(e, c.arguments, argsMatch)
      const matched = order === 'any' ? bestMatching(wanted, calls, matches) : inOrderMatching(wanted, calls, matches)
      const m = matched.filter((x) => x !== undefined).length
      const precision = calls.length === 0 ? (wanted.length === 0 ? 1 : 0) : m / calls.length
      const recall = wanted.length === 0 ? 1 : m / wanted.length
      const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
      const score = Math.round(f1 * 1e6) / 1e6
      const tally = `${m} of ${wanted.length} expected call${wanted.length === 1 ? '' : 's'} made, ${calls.length} call${calls.length === 1 ? '' : 's'} in all (precision ${round2(precision)}, recall ${round2(recall)})`
      const modelCalls = modelCallsOf(steps)
      if (maxCalls !== undefined && calls.length > maxCalls) return { pass: false, score, reason: `made ${calls.length} tool calls, more than maxCalls ${maxCalls}; ${tally}` }
      if (maxSteps !== undefined && modelCalls > maxSteps) return { pass: false, score, reason: `took ${modelCalls} steps (model calls), more than maxSteps ${maxSteps}; ${tally}` }
      const missing = matched.findIndex((x) => x === undefined)
      if (missing !== -1) return { pass: false, score, reason: `${missingReason(wanted, missing, calls, matched, argsMatch, recorded === true)}; ${tally}` }
      if (order === 'exact' && calls.length > wanted.length) {
        const used = new Set(matched)
        const extra = calls.findIndex((_, i) => !used.has(i))
        return {
          pass: false,
          score,
          reason: `unexpected call ${extra + 1} of ${calls.length}: ${calls[extra]!.name}${quoteArgs(calls[extra]!, recorded === true)} (order 'exact' allows no other call); ${tally}`,
        }
      }
      return { pass: true, score }
    },
  }
}

function refuse(field: string, problem: string): never {
  throw new InvalidSuiteError(`${OWNER}: ${field} ${problem}`, `Fix ${field} where the suite creates the scorer (docs/guide.md#agents-and-tool-calls).`, ['scorers', field])
}

function argsOf(value: unknown): Expected['args'] {
  if (value === undefined) return undefined
  if (value !== null && typeof value === 'object' && typeof (value as { safeParse?: unknown }).safeParse === 'function') return { schema: value as z.ZodType }
  return { value }
}

function expectedFrom(list: unknown, perTool: Readonly<Record<string, unknown>>, where: string, atRun = false): Expected[] {
  const fail = (problem: string): never => {
    if (atRun) throw new Error(`${OWNER}: ${where} ${problem}`)
    return refuse(where, problem)
  }
  if (!Array.isArray(list)) return fail(`must be a list of tool calls (a name, or { name, args? }), got ${kindOf(list)}`)
  return list.map((item: unknown, i): Expected => {
    if (typeof item === 'string' && item !== '') return { name: item, args: argsOf(perTool[item]) }
    if (item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') {
      const { name, args } = item as { name: string; args?: unknown }
      return { name, args: argsOf(args === undefined ? perTool[name] : args) }
    }
    return fail(`[${i}] must be a tool's name or { name, args? }, got ${kindOf(item)}`)
  })
}

function fromCase(expected: unknown): unknown {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected) && 'toolCalls' in expected) return (expected as { toolCalls: unknown }).toolCalls
  return expected
}

function argsConfig(args: Expected['args']): unknown {
  if (args === undefined) return null
  if ('schema' in args) return { schema: zodNow().toJSONSchema(args.schema, { io: 'input', unrepresentable: 'any' }) }
  return { value: args.value }
}

function callConfig(e: Expected): JsonObject {
  return e.args === undefined ? { name: e.name } : { name: e.name, args: argsConfig(e.args) }
}

function argsFit(e: Expected, actual: unknown, match: 'subset' | 'equal'): boolean {
  if (e.args === undefined) return true
  if ('schema' in e.args) return e.args.schema.safeParse(actual).success
  return valueFits(e.args.value, actual, match)
}

function valueFits(want: unknown, got: unknown, match: 'subset' | 'equal'): boolean {
  if (match === 'subset' && want !== null && typeof want === 'object' && !Array.isArray(want)) {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) return false
    return Object.entries(want).every(([k, v]) => Object.hasOwn(got, k) && valueFits(v, (got as Record<string, unknown>)[k], match))
  }
  return canonicalJson(want) === canonicalJson(got)
}

/** For each expected call, the index of the call it is matched with: the longest match that keeps both orders. */
function inOrderMatching(wanted: readonly Expected[], calls: readonly ToolCallStep[], matches: (e: Expected, c: ToolCallStep) => boolean): (number | undefined)[] {
  const rows = wanted.length + 1
  const cols = calls.length + 1
  const best = new Array<number>(rows * cols).fill(0)
  for (let i = wanted.length - 1; i >= 0; i--) {
    for (let j = calls.length - 1; j >= 0; j--) {
      best[i * cols + j] = matches(wanted[i]!, calls[j]!) ? 1 + best[(i + 1) * cols + j + 1]! : Math.max(best[(i + 1) * cols + j]!, best[i * cols + j + 1]!)
    }
  }
  const out = new Array<number | undefined>(wanted.length).fill(undefined)
  let i = 0
  let j = 0
  while (i < wanted.length && j < calls.length) {
    if (matches(wanted[i]!, calls[j]!) && best[i * cols + j] === 1 + best[(i + 1) * cols + j + 1]!) out[i++] = j++
    // On a tie, skip the call rather than the expected call: the earliest expected calls are matched.
    else if (best[i * cols + j + 1]! >= best[(i + 1) * cols + j]!) j++
    else i++
  }
  return out
}

/** For each expected call, the call it is matched with, in any order: a maximum matching (augmenting paths). */
function bestMatching(wanted: readonly Expected[], calls: readonly ToolCallStep[], matches: (e: Expected, c: ToolCallStep) => boolean): (number | undefined)[] {
  const owner = new Array<number | undefined>(calls.length).fill(undefined)
  const fits = wanted.map((e) => calls.map((c) => matches(e, c)))
  const augment = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < calls.length; j++) {
      if (!fits[i]![j] || seen[j]) continue
      seen[j] = true
      if (owner[j] === undefined || augment(owner[j]!, seen)) {
        owner[j] = i
        return true
      }
    }
    return false
  }
  for (let i = 0; i < wanted.length; i++) augment(i, new Array<boolean>(calls.length).fill(false))
  const out = new Array<number | undefined>(wanted.length).fill(undefined)
  owner.forEach((i, j) => {
    if (i !== undefined) out[i] = j
  })
  return out
}

function missingReason(
  wanted: readonly Expected[],
  at: number,
  calls: readonly ToolCallStep[],
  matched: readonly (number | undefined)[],
  match: 'subset' | 'equal',
  recorded: boolean,
): string {
  const e = wanted[at]!
  const head = `missing expected call ${at + 1} of ${wanted.length}: ${e.name}`
  const used = new Set(matched)
  const sameName = calls.map((c, j) => ({ c, j })).filter(({ c, j }) => c.name === e.name && !used.has(j))
  if (sameName.length === 0) return calls.some((c) => c.name === e.name) ? `${head} (every call of ${e.name} was matched to another expected call)` : `${head} (never called)`
  const { c, j } = sameName[0]!
  if (argsFit(e, c.arguments, match)) return `${head} (called as call ${j + 1}, out of the expected order)`
  const args = e.args!
  if ('schema' in args) {
    const parsed = args.schema.safeParse(c.arguments)
    if (!parsed.success)
      return `${head} (call ${j + 1} of ${e.name} has arguments the schema refuses: ${describeZodError(parsed.error, c.arguments, 'arguments', args.schema, recorded).sentence})`
  }
  if (recorded && 'value' in args) return `${head} (call ${j + 1} of ${e.name} has the arguments ${preview(c.arguments, 120)}, expected ${preview(args.value, 120)})`
  return `${head} (call ${j + 1} of ${e.name} has other arguments; not quoted, as answers are not recorded)`
}

function quoteArgs(call: ToolCallStep, recorded: boolean): string {
  return recorded && call.arguments !== undefined ? ` ${preview(call.arguments, 120)}` : ''
}

function round2(x: number): string {
  return String(Math.round(x * 100) / 100)
}
