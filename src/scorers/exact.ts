import { preview } from '../suite/preview.js'
import { canonicalJson } from '../suite/hashing.js'
import type { ScorerObject } from '../suite/types.js'

export interface ExactOptions {
  /** Ignore leading and trailing whitespace of string outputs and expectations. */
  trim?: boolean
  caseInsensitive?: boolean
  /** The scorer's name in results (default "exact"); names are unique within a suite. */
  name?: string
}

/** Output equals the case's expected value: strings by ===, anything else by canonical JSON. */
export function exact(options: ExactOptions = {}): ScorerObject {
  const trim = options.trim ?? false
  const caseInsensitive = options.caseInsensitive ?? false
  const normalize = (text: string): string => {
    const trimmed = trim ? text.trim() : text
    return caseInsensitive ? trimmed.toLowerCase() : trimmed
  }
  return {
    name: options.name ?? 'exact',
    config: { trim, case_insensitive: caseInsensitive },
    score({ output, expected }) {
      if (expected === undefined) throw new Error('the case declares no expected value to compare the output with')
      const equal =
        typeof output === 'string' && typeof expected === 'string'
          ? normalize(output) === normalize(expected)
          : canonicalJson(output) === canonicalJson(expected)
      return equal ? { pass: true, score: 1 } : { pass: false, score: 0, reason: `expected ${preview(expected)}, got ${preview(output)}` }
    },
  }
}

export { preview }
