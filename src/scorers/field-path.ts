// `path`, the option every built-in scorer takes: score one field of a structured answer (ADR 0260).
// A path is keys joined by dots, with [n] for an array element: `total`, `items[0].price`. It is
// config (in config_hash), so a reason may name it; the values it selects are answers.
import { InvalidSuiteError } from '../suite/errors.js'
import type { ScoreResult, ScorerArgs, ScorerObject, ScorerReturn } from '../suite/types.js'
import { preview } from './reason-text.js'

export type PathStep = string | number

const STEP = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\])/

/** The steps of a path, or undefined when it is not one. */
export function parsePath(path: string): PathStep[] | undefined {
  if (typeof path !== 'string' || path === '' || path.startsWith('.')) return undefined
  const steps: PathStep[] = []
  let rest = path
  while (rest !== '') {
    const match = STEP.exec(rest)
    if (match === null) return undefined
    steps.push(match[1] ?? Number(match[2]))
    rest = rest.slice(match[0].length)
  }
  return steps
}

/** The path's steps, or a refusal naming the scorer that was given it. */
export function requirePath(path: unknown, owner: string): PathStep[] {
  const steps = typeof path === 'string' ? parsePath(path) : undefined
  if (steps === undefined) {
    throw new InvalidSuiteError(
      `${owner} was given the path ${preview(path)}, which is not a field path`,
      'Pass keys joined by dots, with [n] for an array element, e.g. path: "total" or path: "items[0].price".',
      ['scorers'],
    )
  }
  return steps
}

const MISSING = Symbol('missing')

/** The value at the steps, or MISSING when a step finds nothing. */
export function select(value: unknown, steps: readonly PathStep[]): unknown {
  let at: unknown = value
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(at) || step >= at.length) return MISSING
      at = at[step]
    } else {
      if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, step)) return MISSING
      at = (at as Record<string, unknown>)[step]
    }
  }
  return at
}

export const isMissing = (value: unknown): value is typeof MISSING => value === MISSING

/** A string answer is read as JSON (a model's structured answer is text); anything else as it is. */
export function structured(output: unknown): { value: unknown } | { notJson: string } {
  if (typeof output !== 'string') return { value: output }
  try {
    return { value: JSON.parse(output) as unknown }
  } catch (error) {
    return { notJson: (error as Error).message }
  }
}

/** Scorer arguments a path-aware scorer may read: the whole answer, before its field was taken. */
export interface WholeAnswerArgs extends ScorerArgs {
  wholeOutput?: unknown
}

/**
 * The scorer, scoring the field at `path` of the output instead of the whole output. An expected
 * value that is an object or an array is read at the same path; any other expected value is the
 * field's expected value itself. Without a path the scorer is returned unchanged (its config too,
 * so config_hash does not move for suites that set none).
 */
export function withPath(scorer: ScorerObject, path: string | undefined, owner: string): ScorerObject {
  if (path === undefined) return scorer
  const steps = requirePath(path, owner)
  const inner = scorer.score.bind(scorer)
  return {
    ...scorer,
    config: { ...scorer.config, path },
    async score(args: ScorerArgs): Promise<ScorerReturn> {
      const read = structured(args.output)
      if ('notJson' in read) {
        const why =
          args.recorded === true
            ? `output is not JSON (${read.notJson}): ${preview(args.output)}`
            : 'the output is a string that is not JSON (not quoted, as answers are not recorded)'
        return { pass: false, score: 0, reason: `${why}, so it has no field ${path}` }
      }
      const field = select(read.value, steps)
      if (isMissing(field)) return { pass: false, score: 0, reason: `the output has no field ${path}` }
      let expected = args.expected
      if (expected !== null && typeof expected === 'object') {
        expected = select(expected, steps)
        if (isMissing(expected)) throw new Error(`the case's expected value is an object without the field ${path}; give the field, or the field's value alone`)
      }
      const next: WholeAnswerArgs = { ...args, output: field, expected, wholeOutput: read.value }
      const result = await inner(next as never)
      return prefixReason(result, path)
    },
  }
}

function prefixReason(result: ScorerReturn, path: string): ScorerReturn {
  if (typeof result === 'boolean') return result ? true : { pass: false, score: 0, reason: `at ${path}: returned false` }
  if (typeof result === 'number' || result === null || typeof result !== 'object') return result
  const { reason } = result as ScoreResult
  return typeof reason === 'string' ? { ...result, reason: `at ${path}: ${reason}` } : result
}
