// Whether a launch of a suite uses the response cache: DIGLINE_CACHE (0 or 1; `digline run --no-cache`
// sets 0) wins, then the suite's own `cache` option, then the default: on under `vitest --watch`,
// where a saved scorer should cost no calls, and off otherwise.
import { InvalidOptionsError } from '../../suite/errors.js'
import type { ResolvedSuite } from '../../suite/types.js'

export const CACHE_ENV = 'DIGLINE_CACHE'

export function cacheIsOn(suite: Pick<ResolvedSuite, 'cache'>, env: NodeJS.ProcessEnv, watch: boolean): boolean {
  return cacheSetting(suite, env, watch) !== 'off'
}

/** off, or who turned the cache on: DIGLINE_CACHE=1 or the suite's `cache: true` (asked), or watch mode's default. */
export function cacheSetting(suite: Pick<ResolvedSuite, 'cache'>, env: NodeJS.ProcessEnv, watch: boolean): 'off' | 'asked' | 'watch' {
  const raw = env[CACHE_ENV]
  if (raw === '1') return 'asked'
  if (raw === '0') return 'off'
  if (raw !== undefined && raw !== '')
    throw new InvalidOptionsError(`${CACHE_ENV}=${JSON.stringify(raw)} was refused: it is 1 (cache on) or 0 (cache off)`, `Set ${CACHE_ENV}=1 or ${CACHE_ENV}=0, or unset it.`, [
      CACHE_ENV,
    ])
  if (suite.cache !== undefined) return suite.cache ? 'asked' : 'off'
  return watch ? 'watch' : 'off'
}
