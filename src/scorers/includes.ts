import { InvalidSuiteError } from '../suite/errors.js'
import type { ScorerObject } from '../suite/types.js'
import { kindOf, preview, quoteIf } from './reason-text.js'
import { withPath } from './field-path.js'

export interface IncludesOptions {
  caseInsensitive?: boolean
  /** The scorer's name in results (default "includes"). */
  name?: string
  /** Score one field of a structured answer (a JSON string or an object), e.g. "total" or "items[0].price"; in the config. */
  path?: string
}

type Needle = string | readonly string[]

/**
 * A string output contains the needle: the fixed one given here (`includes('Paris')`), or else the
 * case's expected value (a string, or an array of strings that must all appear).
 */
export function includes(needleOrOptions?: Needle | IncludesOptions, maybeOptions: IncludesOptions = {}): ScorerObject {
  const fixed = typeof needleOrOptions === 'string' || Array.isArray(needleOrOptions) ? (needleOrOptions as Needle) : undefined
  const options = fixed === undefined ? ((needleOrOptions as IncludesOptions | undefined) ?? {}) : maybeOptions
  if (fixed !== undefined && checkNeedles(fixed) !== undefined) {
    throw new InvalidSuiteError(
      `scorers.includes() was given ${preview(fixed)}: ${checkNeedles(fixed)}`,
      'Pass a non-empty string or a non-empty array of non-empty strings, or nothing to use each case’s expected value.',
      ['scorers'],
    )
  }
  const caseInsensitive = options.caseInsensitive ?? false
  const fold = (text: string): string => (caseInsensitive ? text.toLowerCase() : text)
  const scorer: ScorerObject = {
    name: options.name ?? 'includes',
    config: { needle: fixed === undefined ? null : typeof fixed === 'string' ? fixed : [...fixed], case_insensitive: caseInsensitive },
    score({ output, expected, recorded }) {
      const needle = fixed ?? (expected as Needle | undefined)
      const problem = checkNeedles(needle)
      if (problem !== undefined) throw new Error(`the case's expected value ${quoteIf(recorded, expected, `(${kindOf(expected)})`)} cannot be searched for: ${problem}`)
      if (typeof output !== 'string') return { pass: false, score: 0, reason: `output is not a string: got ${quoteIf(recorded, output, kindOf(output))}` }
      const needles = typeof needle === 'string' ? [needle] : needle!
      const missing = needles.findIndex((n) => !fold(output).includes(fold(n)))
      if (missing === -1) return { pass: true, score: 1 }
      if (recorded === true) return { pass: false, score: 0, reason: `${preview(output)} does not contain ${preview(needles[missing])}` }
      // A fixed needle is config (in judge_config already); a needle from expected is not quoted.
      const what = fixed !== undefined ? preview(needles[missing]) : typeof needle === 'string' ? 'the expected value' : `element ${missing} of the expected value`
      return { pass: false, score: 0, reason: `the output does not contain ${what} (the output is not quoted, as answers are not recorded)` }
    },
  }
  return withPath(scorer, options.path, 'scorers.includes()')
}

function checkNeedles(needle: unknown): string | undefined {
  if (typeof needle === 'string') return needle === '' ? 'an empty string is contained in everything' : undefined
  if (!Array.isArray(needle)) return 'it is neither a string nor an array of strings'
  if (needle.length === 0) return 'an empty array asks for nothing'
  if (!needle.every((n) => typeof n === 'string' && n !== '')) return 'every element must be a non-empty string'
  return undefined
}
