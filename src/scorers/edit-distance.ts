import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { figure, unitOption } from './judge-call.js'
import { kindOf, quoteIf } from './reason-text.js'

export interface EditDistanceOptions {
  /** The lowest similarity (1 − distance / longer length) that passes (default 0.8). */
  passAt?: number
  /** Ignore leading and trailing whitespace. */
  trim?: boolean
  caseInsensitive?: boolean
  /** Score one field of a structured answer; in the config. */
  path?: string
  /** The scorer's name in results (default "edit_distance"). */
  name?: string
}

/** Levenshtein distance over code points: insertions, deletions and substitutions, each 1. */
export function levenshtein(a: string, b: string): number {
  const s = [...a]
  const t = [...b]
  if (s.length === 0) return t.length
  if (t.length === 0) return s.length
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j)
  for (let i = 1; i <= s.length; i++) {
    const current = [i]
    for (let j = 1; j <= t.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[t.length]!
}

/** 1 − distance / the longer length: 1 for equal strings (two empty ones too), 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  const longer = Math.max([...a].length, [...b].length)
  return longer === 0 ? 1 : 1 - levenshtein(a, b) / longer
}

/** The string output's normalised edit similarity to the case's expected string. */
export function editDistance(options: EditDistanceOptions = {}): ScorerObject {
  const owner = 'scorers.editDistance()'
  const passAt = unitOption(options.passAt, 0.8, owner, 'passAt')
  const trim = options.trim ?? false
  const caseInsensitive = options.caseInsensitive ?? false
  const normalize = (text: string): string => {
    const trimmed = trim ? text.trim() : text
    return caseInsensitive ? trimmed.toLowerCase() : trimmed
  }
  const scorer: ScorerObject = {
    name: options.name ?? 'edit_distance',
    config: { pass_at: passAt, trim, case_insensitive: caseInsensitive },
    passAt,
    score({ output, expected, recorded }) {
      if (typeof expected !== 'string') throw new Error(`the case's expected value ${quoteIf(recorded, expected, `(${kindOf(expected)})`)} is not a string to compare with`)
      if (typeof output !== 'string') return { pass: false, score: 0, reason: `output is not a string: got ${quoteIf(recorded, output, kindOf(output))}` }
      const a = normalize(output)
      const b = normalize(expected)
      const score = similarity(a, b)
      const pass = score >= passAt - 1e-12
      if (pass && score === 1) return { pass, score }
      const edits = `${levenshtein(a, b)} edits over ${Math.max([...a].length, [...b].length)} characters: similarity ${figure(score)}`
      return { pass, score, reason: pass ? edits : `${edits}, below pass_at ${figure(passAt)}` }
    },
  }
  return withPath(scorer, options.path, owner)
}
