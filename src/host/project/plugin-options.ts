// The digline() plugin options, validated in one place for the plugin and the CLI.
import { isAbsolute, resolve } from 'node:path'
import { storeLocator, storeTarget } from '../../store/store-locator.js'
import { InvalidOptionsError } from '../../suite/errors.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from '../../suite/safe-segment.js'
import { FAMILY_WISE_METHODS, type FamilyWise } from '../judge/family-wise.js'

export interface DiglineOptions {
  /** Who the runs belong to; one safe path segment. Required. */
  tenant: string
  /** Where the runs were made (default: DIGLINE_ENVIRONMENT, else "local"). */
  environment?: string
  /** The store: a directory relative to the Vitest root (default ".digline"); DIGLINE_STORE overrides it. */
  store?: string
  /** Files (relative to the Vitest root) that register onCase() hooks; loaded in every worker. */
  hooks?: string[]
  /** How a launch that gates several suites and gates shares its false-alarm budget (ADR 0242): 'holm' (default) or 'none'. */
  familyWise?: FamilyWise
}

export interface ResolvedOptions {
  tenant: string
  environment: string
  /** The store's locator (see storeLocator): an absolute directory, or a URL. */
  storeRoot: string
  /** Absolute paths of the hook files. */
  hooks: string[]
  familyWise: FamilyWise
}

export function resolveOptions(options: unknown, root: string, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  const opts = (options ?? {}) as Partial<DiglineOptions>
  if (typeof opts !== 'object') throw invalid('the options', 'must be an object like { tenant: "acme" }', [])
  if (!isSafeSegment(opts.tenant)) throw invalid('tenant', `must be one safe path segment (${SAFE_SEGMENT_RULE}); got ${JSON.stringify(opts.tenant)}`, ['tenant'])
  const environment = opts.environment ?? (env.DIGLINE_ENVIRONMENT || 'local')
  if (!isSafeSegment(environment)) throw invalid('environment', `must be one safe path segment (${SAFE_SEGMENT_RULE}); got ${JSON.stringify(environment)}`, ['environment'])
  const store = opts.store ?? '.digline'
  if (typeof store !== 'string' || store === '') throw invalid('store', 'must be a non-empty directory path', ['store'])
  const hooks = opts.hooks ?? []
  if (!Array.isArray(hooks) || hooks.some((h) => typeof h !== 'string' || h === '')) throw invalid('hooks', 'must be a list of file paths', ['hooks'])
  const familyWise = opts.familyWise ?? 'holm'
  if (!FAMILY_WISE_METHODS.includes(familyWise)) throw invalid('familyWise', `must be 'holm' or 'none'; got ${JSON.stringify(familyWise)}`, ['familyWise'])
  const storeRoot = storeLocator(store, root, env)
  storeTarget(storeRoot)
  return {
    tenant: opts.tenant,
    environment,
    storeRoot,
    hooks: hooks.map((h) => (isAbsolute(h) ? h : resolve(root, h))),
    familyWise,
  }
}

function invalid(field: string, problem: string, path: string[]): InvalidOptionsError {
  return new InvalidOptionsError(`digline() option ${field} was refused: ${problem}`, `Fix ${field} in the digline() plugin options of vitest.config.ts.`, path)
}
