import { canonicalJson } from '../suite/hashing.js'
import { describeNotPlain, findNotPlain } from '../suite/plain-data.js'
import type { ScorerObject } from '../suite/types.js'
import { kindOf, preview } from './reason-text.js'
import { withPath } from './field-path.js'

export { preview } from './reason-text.js'

export interface ExactOptions {
  /** Ignore leading and trailing whitespace of string outputs and expectations. */
  trim?: boolean
  caseInsensitive?: boolean
  /** The scorer's name in results (default "exact"); names are unique within a suite. */
  name?: string
  /** Score one field of a structured answer (a JSON string or an object), e.g. "total" or "items[0].price"; in the config. */
  path?: string
}

/** Output equals the case's expected value: strings by ===, anything else by canonical JSON. */
export function exact(options: ExactOptions = {}): ScorerObject {
  const trim = options.trim ?? false
  const caseInsensitive = options.caseInsensitive ?? false
  const normalize = (text: string): string => {
    const trimmed = trim ? text.trim() : text
    return caseInsensitive ? trimmed.toLowerCase() : trimmed
  }
  const scorer: ScorerObject = {
    name: options.name ?? 'exact',
    config: { trim, case_insensitive: caseInsensitive },
    score({ output, expected, recorded }) {
      if (expected === undefined) throw new Error('the case declares no expected value to compare the output with')
      const strings = typeof output === 'string' && typeof expected === 'string'
      if (!strings) {
        // A Map or a Date has no canonical JSON; it equals no plain expected value.
        const offence = findNotPlain(output, ['output'])
        if (offence !== undefined) return { pass: false, score: 0, reason: `the output cannot equal plain JSON data: ${describeNotPlain(offence)}` }
      }
      const equal = strings ? normalize(output) === normalize(expected) : canonicalJson(output) === canonicalJson(expected)
      if (equal) return { pass: true, score: 1 }
      if (recorded === true) return { pass: false, score: 0, reason: `expected ${preview(expected)}, got ${preview(output)}` }
      const kinds = kindOf(output) === kindOf(expected) ? `both ${kindOf(output).replace(/^an? /, '')}s` : `the output is ${kindOf(output)}, the expected value ${kindOf(expected)}`
      return { pass: false, score: 0, reason: `the output does not equal the expected value (${kinds}; neither is quoted, as answers are not recorded)` }
    },
  }
  return withPath(scorer, options.path, 'scorers.exact()')
}
