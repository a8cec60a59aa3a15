import * as crypto from 'node:crypto'
import { assertPlainData } from './plain-data.js'
import type { EvalCase, ResolvedScorer, SuiteRules } from './types.js'

/**
 * JSON with object keys sorted at every depth and no whitespace; undefined members dropped. Only
 * plain JSON data has one (src/suite/plain-data.ts): anything else throws NotPlainDataError rather
 * than hashing a Map as {} or NaN as null. An undefined value itself gives undefined.
 */
export function canonicalJson(value: unknown): string {
  assertPlainData(value, [], { allowUndefinedRoot: true })
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sortKeys)
  // No prototype: an own "__proto__" key (JSON.parse makes them) stays a key.
  const out = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key]
    if (v !== undefined) out[key] = sortKeys(v)
  }
  return out
}

// The one-shot crypto.hash (Node 20.12+) is several times cheaper than createHash for short inputs.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash

export function sha256Hex(text: string | Uint8Array): string {
  return oneShot === undefined ? crypto.createHash('sha256').update(text).digest('hex') : oneShot('sha256', text, 'hex')
}

/**
 * How the aggregates are defined. It is part of config_hash: a change here is a change of the
 * rules a run is judged by, so it must move every hash.
 */
export const AGGREGATE_DEFINITIONS = {
  version: 1,
  case_verdict: 'passed_samples >= ceil(min_agreement * samples); every scorer must pass for a sample to pass',
  pass_rate: 'passed / (passed + failed)',
  pass_rate_ci95: 'wilson, z = 1.959964',
  mean_score: 'mean of case scores over judged cases; case score = mean of sample scores; sample score = mean of scorer scores',
} as const

/** Adaptive samples' stopping rule (src/stats/sampling-stop.ts, ADR 0360), as config_hash records it: a new rule moves every adaptive suite's hash. */
export const STOPPING_RULE = 'curtailed: min samples, then one at a time up to samples until the verdict at samples can no longer change'

export function judgeConfigOf(
  scorers: readonly ResolvedScorer[],
  simulatedUser?: { readonly config: Record<string, unknown> },
): { scorers: { name: string; config: Record<string, unknown>; pass_at: number }[]; simulated_user?: Record<string, unknown> } {
  const config = { scorers: scorers.map((s) => ({ name: s.name, config: s.config, pass_at: s.passAt })) }
  // Absent unless the suite has one, so every other suite keeps its hash.
  return simulatedUser === undefined ? config : { ...config, simulated_user: simulatedUser.config }
}

/** 12 hex of sha256 over the rules, the scorers and the aggregate definitions. */
export function configHash(rules: SuiteRules, scorers: readonly ResolvedScorer[], simulatedUser?: { readonly config: Record<string, unknown> }): string {
  const subject = {
    samples: rules.samples,
    // Absent unless adaptive (ADR 0360); the stopping rule's text with it, so a new rule moves the hash.
    min_samples: rules.min_samples,
    stopping: rules.min_samples === undefined ? undefined : STOPPING_RULE,
    min_agreement: rules.min_agreement,
    thresholds: rules.thresholds,
    tolerances: rules.tolerances,
    // Absent unless set, so a suite that does not ask keeps its hash.
    gate_on: rules.gate_on,
    calibration: rules.calibration,
    judge_config: judgeConfigOf(scorers, simulatedUser),
    aggregates: AGGREGATE_DEFINITIONS,
  }
  return sha256Hex(canonicalJson(subject)).slice(0, 12)
}

/** sha256 over the declared cases; a journal field only, never in a document or config_hash. */
export function casesDigest(cases: readonly EvalCase[]): string {
  return casesDigests(cases).all
}

export interface CasesDigests {
  all: string
  each: Record<string, string>
}

/**
 * casesDigest, and each case's own digest (12 hex of sha256 over what casesDigest covers of it),
 * from one canonical encoding of the cases: the canonical JSON of a list is its items' canonical
 * JSON joined by commas in brackets, so `all` is the same bytes as hashing the whole list.
 *
 * `declared`: the digests a journal of the run declared. When its `all` is these cases' own, the
 * same bytes were hashed, so its per-case digests are theirs and are handed back as they are,
 * without hashing each case again (a resume or a merge of 100,000 cases).
 */
export function casesDigests(cases: readonly EvalCase[], declared?: CasesDigests): CasesDigests {
  const subjects = cases.map((c) => ({ id: c.id, input: c.input, expected: c.expected, metadata: c.metadata, tags: c.tags }))
  assertPlainData(subjects, [])
  const items = subjects.map((subject) => JSON.stringify(sortKeys(subject)))
  const all = sha256Hex(`[${items.join(',')}]`)
  if (declared?.all === all) return { all, each: declared.each }
  const each: Record<string, string> = {}
  cases.forEach((c, i) => (each[c.id] = sha256Hex(items[i]!).slice(0, 12)))
  return { all, each }
}
