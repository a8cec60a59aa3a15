import { InvalidSuiteError } from '../suite/errors.js'
import type { ScorerObject } from '../suite/types.js'
import { kindOf, preview, quoteIf } from './reason-text.js'
import { withPath } from './field-path.js'

export interface NumericOptions {
  /** The allowed distance from the expected value (>= 0); with `relative`, a share of |expected|. */
  tolerance: number
  relative?: boolean
  /** The scorer's name in results (default "numeric"). */
  name?: string
  /** Score one field of a structured answer (a JSON string or an object), e.g. "total" or "items[0].price"; in the config. */
  path?: string
}

// Keeps binary float noise (0.1 + 0.2 against 0.3) from failing an exact match.
const FLOAT_SLACK = 1e-12

/** A numeric output (a number, or a string holding one) is within tolerance of the expected number. */
export function numeric(options: NumericOptions): ScorerObject {
  const { tolerance } = options ?? {}
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new InvalidSuiteError(
      `scorers.numeric() needs a finite tolerance >= 0, got ${preview(tolerance)}`,
      'Pass { tolerance: 0.01 } (and relative: true for a share of the expected value).',
      ['scorers'],
    )
  }
  const relative = options.relative ?? false
  const scorer: ScorerObject = {
    name: options.name ?? 'numeric',
    config: { tolerance, relative },
    score({ output, expected, recorded }) {
      const want = asNumber(expected)
      if (want === undefined) throw new Error(`the case's expected value ${quoteIf(recorded, expected, `(${kindOf(expected)})`)} is not a number`)
      const got = asNumber(output)
      if (got === undefined) return { pass: false, score: 0, reason: `output is not a number: got ${quoteIf(recorded, output, kindOf(output))}` }
      const bound = relative ? tolerance * Math.abs(want) : tolerance
      if (Math.abs(got - want) <= bound + FLOAT_SLACK * Math.max(1, Math.abs(want))) return { pass: true, score: 1 }
      const within = relative ? `± ${tolerance * 100}%` : `± ${tolerance}`
      if (recorded === true) return { pass: false, score: 0, reason: `expected ${want} ${within}, got ${got}` }
      return {
        pass: false,
        score: 0,
        reason: `the output is ${got > want ? 'above' : 'below'} the expected value by more than ${within.slice(2)} (neither is quoted, as answers are not recorded)`,
      }
    },
  }
  return withPath(scorer, options.path, 'scorers.numeric()')
}

function asNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN
  return Number.isFinite(n) ? n : undefined
}
