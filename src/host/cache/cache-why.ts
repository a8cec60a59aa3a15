// `digline cache why`: which part of a case's cache key changed since its answer was cached, so a
// miss can be explained (input, target config, sample, artifacts, the code and which of its files)
// instead of guessed at.
import { SuiteNotDeclaredError, UsageError } from '../errors.js'
import type { Store } from '../../store/contract.js'
import { CACHE_KEY_PARTS, cacheKeyOf, cacheKeyParts, type CacheEntry, type CacheKeyParts, type CaseCacheSubject, type CodeFiles } from '../../suite/cache-key.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'

export type CachePartName = (typeof CACHE_KEY_PARTS)[number]

export interface CacheWhyRequest {
  store: Pick<Store, 'cachedAnswersOf'>
  tenant: string
  suite: string
  caseId: string
  sample: number
  /** The case's cache subject as the suite declares it now; undefined when the suite is not declared, null when the case is not. */
  current: () => Promise<CaseCacheSubject | undefined | null>
}

export interface CacheWhy {
  suite: string
  caseId: string
  sample: number
  /** hit: the next run reuses an answer. changed: an earlier answer exists, and these parts differ. empty: nothing cached for the case. */
  status: 'hit' | 'changed' | 'empty'
  changed: CachePartName[]
  /** When the code changed: the files added, edited or gone since, relative to the project root. */
  changedFiles: string[]
  /** The cached entry compared with (the hit, or the nearest earlier answer). */
  comparedWith?: { sample: number; cached_at: string }
}

const NAMES: Record<CachePartName, string> = {
  input: 'the case input',
  target: 'the target config',
  sample: 'the sample index',
  artifacts: 'the artifacts',
  code: 'the code the target runs',
}

export async function explainCacheMiss(request: CacheWhyRequest): Promise<CacheWhy> {
  const { store, tenant, suite, caseId, sample } = request
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  assertSafeSegment('case', caseId)
  const subject = await request.current()
  if (subject === undefined)
    throw new SuiteNotDeclaredError(
      `digline cache why: no suite file declares suite ${suite} now, so its cache keys cannot be computed`,
      'vitest list (to see the suites declared), then ask again with one of them',
      ['--suite'],
    )
  if (subject === null)
    throw new UsageError(`digline cache why: suite ${suite} declares no case ${JSON.stringify(caseId)}`, `vitest list (to see the cases of suite ${suite}), then ask again`, [
      '--case',
    ])
  const now = cacheKeyParts(subject, sample)
  const key = cacheKeyOf(caseId, now)
  const entries = await store.cachedAnswersOf(tenant, suite, caseId)
  const base = { suite, caseId, sample }
  const hit = entries.find((e) => e.key === key)
  if (hit !== undefined) return { ...base, status: 'hit', changed: [], changedFiles: [], comparedWith: { sample, cached_at: hit.cached_at } }
  if (entries.length === 0) return { ...base, status: 'empty', changed: [], changedFiles: [] }
  // The nearest earlier answer: the same sample if there is one, else the newest of the case.
  const nearest = entries.find((e) => e.parts.sample === sample) ?? entries[0]!
  const changed = changedParts(nearest.parts, now)
  return {
    ...base,
    status: 'changed',
    changed,
    changedFiles: changed.includes('code') ? changedFiles(nearest.code_files, subject.codeFiles) : [],
    comparedWith: { sample: nearest.parts.sample, cached_at: nearest.cached_at },
  }
}

function changedFiles(then: CodeFiles, now: CodeFiles): string[] {
  return [...new Set([...Object.keys(then), ...Object.keys(now)])].filter((path) => then[path] !== now[path]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

function changedParts(then: CacheKeyParts, now: CacheKeyParts): CachePartName[] {
  return CACHE_KEY_PARTS.filter((part) => then[part] !== now[part])
}

export function formatCacheWhy(why: CacheWhy): string {
  const subject = `case ${why.caseId} of suite ${why.suite}, sample ${why.sample}`
  if (why.status === 'hit') return `${subject}: cached (answer of ${why.comparedWith!.cached_at}); a run with the cache on reuses it and makes no call for it.`
  if (why.status === 'empty') return `${subject}: nothing is cached for this case. Run the suite with the cache on (cache: true in the suite, or DIGLINE_CACHE=1) to fill it.`
  const files = why.changedFiles.length === 0 ? '' : ` (${why.changedFiles.join(', ')})`
  const parts = why.changed.map((p) => (p === 'code' ? `${NAMES[p]}${files}` : NAMES[p])).join(', ')
  return `${subject}: a cache miss. Since the answer cached at ${why.comparedWith!.cached_at} (sample ${why.comparedWith!.sample}), ${parts} changed, so the next run asks the target again.`
}

export type { CacheEntry }
