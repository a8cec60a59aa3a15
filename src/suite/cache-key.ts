// The response cache's key (SPEC §14): a target answer is reused when the case, its input, the
// target's declared config, the sample index, the artifacts and the code the target runs (the suite
// file and the project modules it imports) are all unchanged. Every part that could hold a secret (a
// config value, an input) enters only as a sha256 digest, and the parts' digests are kept with the
// entry so that a miss can be explained part by part, and a changed code file by its path.
import { PathRefusedError } from './errors.js'
import { canonicalJson, sha256Hex } from './hashing.js'
import type { AnswerStep } from './steps.js'
import type { AnswerTurn } from './turns.js'
import type { JsonObject, TokenUsage } from './types.js'

/** The parts of a cache key, each a sha256 hex digest except the sample index. */
export interface CacheKeyParts {
  input: string
  target: string
  sample: number
  artifacts: string
  /** sha256 over the code files' digests (see codeDigest). */
  code: string
}

/** The parts `cache why` names, in the order it names them. */
export const CACHE_KEY_PARTS = ['input', 'target', 'sample', 'artifacts', 'code'] as const satisfies readonly (keyof CacheKeyParts)[]

/** The code the target runs: each project file's path (relative to the project root, `/`-separated) → sha256 of its bytes. */
export type CodeFiles = Record<string, string>

/** A target answer as the cache keeps it: plain JSON, as the target returned it. */
export interface CachedTargetAnswer {
  output: unknown
  model?: string
  usage?: TokenUsage
  /** An agent's steps, whole (a cached answer is an answer, ADR 0151). */
  steps?: AnswerStep[]
  /** A conversation the target ran itself, whole. */
  turns?: AnswerTurn[]
}

/** One entry of the response cache. */
export interface CacheEntry {
  /** 64 hex: sha256 over the case id and the parts; the entry's address. */
  key: string
  case_id: string
  parts: CacheKeyParts
  /** The files `parts.code` was made of, so that `cache why` can name the one that changed. */
  code_files: CodeFiles
  /** The key of the run that asked the target for this answer: deleting that run removes the entry. */
  run: string
  answer: CachedTargetAnswer
  /** When the answer was asked for (ISO-8601 UTC with microseconds). */
  cached_at: string
}

/** What a case's answers do not depend on by sample: its input, the target config, the artifacts, the code. */
export interface CaseCacheSubject {
  input: string
  target: string
  artifacts: string
  code: string
  codeFiles: CodeFiles
}

export function targetDigest(targetConfig: JsonObject): string {
  return sha256Hex(canonicalJson(targetConfig))
}

export function artifactsDigest(artifacts: Record<string, string>): string {
  return sha256Hex(canonicalJson(artifacts))
}

export function codeDigest(files: CodeFiles): string {
  return sha256Hex(canonicalJson(files))
}

export function inputDigest(input: unknown): string {
  return sha256Hex(canonicalJson({ input }))
}

export function cacheKeyParts(subject: CaseCacheSubject, sample: number): CacheKeyParts {
  return { input: subject.input, target: subject.target, sample, artifacts: subject.artifacts, code: subject.code }
}

export function cacheKeyOf(caseId: string, parts: CacheKeyParts): string {
  return sha256Hex(canonicalJson({ cache: 2, case_id: caseId, ...parts }))
}

export function isCacheKey(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)
}

/** Refuses anything but a cache key before a store looks it up (it names an entry, so it is held to a name's rules). */
export function assertCacheKey(key: unknown): asserts key is string {
  if (isCacheKey(key)) return
  throw new PathRefusedError(
    `refused the cache key ${JSON.stringify(String(key).slice(0, 80))}: a cache key is 64 lowercase hex digits`,
    'Pass the key as the cache computed it.',
    ['key'],
  )
}

/** Refuses an entry filed under a key that is not the key of its own parts. */
export function assertKeyOfItsParts(entry: CacheEntry): void {
  if (cacheKeyOf(entry.case_id, entry.parts) !== entry.key)
    throw new PathRefusedError(`refused a cache entry filed under ${entry.key}: it is not the key of its own parts`, 'File the entry under cacheKeyOf(case_id, parts).', ['key'])
}
