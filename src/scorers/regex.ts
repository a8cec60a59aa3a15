import { InvalidSuiteError } from '../suite/errors.js'
import type { ScorerObject } from '../suite/types.js'
import { kindOf, preview, quoteIf } from './reason-text.js'
import { withPath } from './field-path.js'

export interface RegexOptions {
  /** The scorer's name in results (default "regex"). */
  name?: string
  /** Score one field of a structured answer (a JSON string or an object), e.g. "total" or "items[0].price"; in the config. */
  path?: string
}

/** A string output matches the pattern. */
export function regex(pattern: RegExp | string, options: RegexOptions = {}): ScorerObject {
  let compiled: RegExp
  try {
    compiled = typeof pattern === 'string' ? new RegExp(pattern) : new RegExp(pattern.source, pattern.flags)
  } catch (error) {
    throw new InvalidSuiteError(`scorers.regex() was given an invalid pattern ${preview(pattern)}: ${(error as Error).message}`, 'Fix the pattern in the suite file.', ['scorers'])
  }
  const { source, flags } = compiled
  const scorer: ScorerObject = {
    name: options.name ?? 'regex',
    config: { source, flags },
    score({ output, recorded }) {
      if (typeof output !== 'string') return { pass: false, score: 0, reason: `output is not a string: got ${quoteIf(recorded, output, kindOf(output))}` }
      // A fresh RegExp per call: a /g or /y pattern keeps lastIndex between test() calls.
      if (new RegExp(source, flags).test(output)) return { pass: true, score: 1 }
      return { pass: false, score: 0, reason: `${quoteIf(recorded, output, 'the output (not quoted, as answers are not recorded)')} does not match /${source}/${flags}` }
    },
  }
  return withPath(scorer, options.path, 'scorers.regex()')
}
