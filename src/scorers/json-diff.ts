import { canonicalJson } from '../suite/hashing.js'
import type { ScorerObject } from '../suite/types.js'
import { structured, withPath } from './field-path.js'
import { figure, refuseOption, unitOption } from './judge-call.js'
import { kindOf, preview, quoteIf } from './reason-text.js'

export interface JsonDiffOptions {
  /** The lowest share of matching fields that passes (default 1: every field must match). */
  passAt?: number
  /** Numbers within this absolute distance match (default 0). */
  tolerance?: number
  /** Score one field of a structured answer (a sub-object, say); in the config. */
  path?: string
  /** The scorer's name in results (default "json_diff"). */
  name?: string
}

type Leaves = Map<string, unknown>

/** Every leaf of a JSON value by its path: `a.b`, `items[0]`; an empty object or array is a leaf itself. */
export function leaves(value: unknown, at = '', into: Leaves = new Map()): Leaves {
  if (Array.isArray(value) && value.length > 0) value.forEach((v, i) => leaves(v, `${at}[${i}]`, into))
  else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, at === '' ? k : `${at}.${k}`, into)
  } else into.set(at === '' ? '(the value)' : at, value)
  return into
}

/**
 * Field by field: the expected value's leaves and the output's (a JSON string is parsed) are paired
 * by path; the score is the share of paths, of either, whose values match. A reason names the
 * differing paths only when answers are recorded, since keys are part of the answer.
 */
export function jsonDiff(options: JsonDiffOptions = {}): ScorerObject {
  const owner = 'scorers.jsonDiff()'
  const passAt = unitOption(options.passAt, 1, owner, 'passAt')
  const tolerance = options.tolerance ?? 0
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) throw refuseOption(owner, 'tolerance', 'must be a finite number >= 0')
  const same = (a: unknown, b: unknown): boolean =>
    typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= tolerance + 1e-12 * Math.max(1, Math.abs(b)) : canonicalJson(a) === canonicalJson(b)
  const scorer: ScorerObject = {
    name: options.name ?? 'json_diff',
    config: { pass_at: passAt, tolerance },
    passAt,
    score({ output, expected, recorded }) {
      if (expected === undefined) throw new Error('the case declares no expected value to compare the fields with')
      const read = structured(output)
      if ('notJson' in read) return { pass: false, score: 0, reason: `output is not JSON: got ${quoteIf(recorded, output, 'a string (not quoted, as answers are not recorded)')}` }
      const parsedExpected = structured(expected)
      const want = leaves('value' in parsedExpected ? parsedExpected.value : expected)
      const got = leaves(read.value)
      const paths = [...new Set([...want.keys(), ...got.keys()])]
      const differ: string[] = []
      const missing: string[] = []
      const extra: string[] = []
      for (const p of paths) {
        if (!got.has(p)) missing.push(p)
        else if (!want.has(p)) extra.push(p)
        else if (!same(got.get(p), want.get(p))) differ.push(p)
      }
      const matched = paths.length - differ.length - missing.length - extra.length
      const score = paths.length === 0 ? 1 : matched / paths.length
      const pass = score >= passAt - 1e-12
      if (matched === paths.length) return { pass, score }
      const counts = `${matched} of ${paths.length} fields match (${figure(score)})`
      if (recorded !== true) {
        const parts = [`${differ.length} differ`, `${missing.length} missing`, `${extra.length} extra`].filter((p) => !p.startsWith('0 '))
        return { pass, score, reason: `${counts}: ${parts.join(', ')} (fields are not named, as answers are not recorded; the output is ${kindOf(read.value)})` }
      }
      const named = [
        ...differ.map((p) => `${p}: expected ${preview(want.get(p), 40)}, got ${preview(got.get(p), 40)}`),
        ...missing.map((p) => `${p} missing`),
        ...extra.map((p) => `${p} not expected`),
      ]
      return { pass, score, reason: `${counts}: ${named.slice(0, 5).join('; ')}${named.length > 5 ? `; and ${named.length - 5} more` : ''}` }
    },
  }
  return withPath(scorer, options.path, owner)
}
