// The launch directives a `digline` command hands the Vitest workers through the environment:
// one codec, so every front end encodes and decodes the same shapes and clears the same variables.
// A directive set by hand that does not decode is refused by name. The shapes are checked by hand, not
// with zod: the host's door and every worker decode them, and a refusal names only the shape (ADR 0420).
import { isAbsolute } from 'node:path'
import { UsageError } from '../errors.js'
import { isCreatedAt } from '../../suite/keys.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { parseShard, shardLabel, type Shard } from './shard.js'

export const RESUME_ENV = 'DIGLINE_RESUME'
export const KEEP_ERRORS_ENV = 'DIGLINE_KEEP_ERRORS'
export const REJUDGE_ENV = 'DIGLINE_REJUDGE'
export const MERGE_ENV = 'DIGLINE_MERGE'
/** `digline run --suite S` (and the mcp tools with a suite): only these suites run; the others are skipped. */
export const SUITES_ENV = 'DIGLINE_SUITES'
/** Set by a person or CI as often as by `digline run --shard`, so a launch keeps it unless it sets its own. */
export const SHARD_ENV = 'DIGLINE_SHARD'

// mcp: where the workers report to the front end that launched them (plan only; progress).
export const PLAN_ENV = 'DIGLINE_PLAN'
export const PROGRESS_ENV = 'DIGLINE_PROGRESS'
/** mcp: suite → the calls the caller acknowledged; a worker whose bill differs calls nothing (SPEC §13). */
export const ACKNOWLEDGED_ENV = 'DIGLINE_ACKNOWLEDGED'

/** Every variable a directive uses; a launch clears them all before setting its own. */
export const DIRECTIVE_ENV = [RESUME_ENV, KEEP_ERRORS_ENV, REJUDGE_ENV, MERGE_ENV, SUITES_ENV, PLAN_ENV, PROGRESS_ENV, ACKNOWLEDGED_ENV] as const

type Check<T> = (value: unknown) => value is T

const isString = (value: unknown): value is string => typeof value === 'string'
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const segment = (value: unknown): value is string => isString(value) && isSafeSegment(value)

/** A store a directive names: an absolute directory (the file store) or a URL (the team store), as the digline() options resolve it. */
const storeLocator = (value: unknown): value is string => isString(value) && (isAbsolute(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value))

const nonEmptyArrayOf =
  <T>(item: Check<T>): Check<T[]> =>
  (value): value is T[] =>
    Array.isArray(value) && value.length > 0 && value.every(item)

const recordOf =
  <T>(item: Check<T>): Check<Record<string, T>> =>
  (value): value is Record<string, T> =>
    isRecord(value) && Object.entries(value).every(([key, v]) => segment(key) && item(v))

/** Exactly these fields, each of its shape; no other field. */
const strictObject =
  <T>(fields: Record<keyof T & string, (value: unknown) => boolean>): Check<T> =>
  (value): value is T =>
    isRecord(value) &&
    Object.keys(value).every((key) => Object.hasOwn(fields, key)) &&
    Object.entries<(value: unknown) => boolean>(fields).every(([key, check]) => Object.hasOwn(value, key) && check(value[key]))

/** `digline run --suite S`: the suites a fresh launch runs. */
const isSuitesDirective = nonEmptyArrayOf(segment)

/** `digline run --resume`: suite → key of the run to finish; suites not named are skipped. */
const isResumeDirective = recordOf(segment)

/** `digline rejudge`: suite `into` replays run `key` of `suite` from that tenant and store. */
export interface RejudgeDirectiveValue {
  into: string
  suite: string
  key: string
  created_at: string
  tenant: string
  store: string
}
const isRejudgeDirective = strictObject<RejudgeDirectiveValue>({
  into: segment,
  suite: segment,
  key: segment,
  created_at: (value) => isString(value) && isCreatedAt(value),
  tenant: segment,
  store: storeLocator,
})

/** `digline merge`: suite → the run to file from its shards' journals, in these store directories; suites not named are skipped. */
export type MergeDirectiveValue = Record<string, { key: string; stores: string[] }>
const isMergeDirective: Check<MergeDirectiveValue> = recordOf(strictObject<{ key: string; stores: string[] }>({ key: segment, stores: nonEmptyArrayOf(storeLocator) }))

/** A value the launch itself encodes is of its shape; one that is not is a defect of digline, not a refusal. */
function checked<T>(check: Check<T>, value: unknown, what: string): T {
  if (!check(value)) throw new Error(`digline: the ${what} directive to encode is not of its shape: ${JSON.stringify(value)}`)
  return value
}

export type LaunchDirective =
  | { kind: 'fresh'; suites?: readonly string[] }
  | { kind: 'resume'; runs: Record<string, string>; keepErrors: boolean }
  | { kind: 'rejudge'; value: RejudgeDirectiveValue }
  | { kind: 'merge'; runs: MergeDirectiveValue }

/** The environment of a launch: `base` without any directive, plus this one. */
export function encodeDirective(base: NodeJS.ProcessEnv, directive: LaunchDirective): NodeJS.ProcessEnv {
  const env = { ...base }
  for (const name of DIRECTIVE_ENV) delete env[name]
  if (directive.kind === 'fresh' && directive.suites !== undefined) {
    env[SUITES_ENV] = JSON.stringify(checked(isSuitesDirective, directive.suites, SUITES_ENV))
  } else if (directive.kind === 'resume') {
    env[RESUME_ENV] = JSON.stringify(checked(isResumeDirective, directive.runs, RESUME_ENV))
    if (directive.keepErrors) env[KEEP_ERRORS_ENV] = '1'
  } else if (directive.kind === 'rejudge') {
    env[REJUDGE_ENV] = JSON.stringify(checked(isRejudgeDirective, directive.value, REJUDGE_ENV))
  } else if (directive.kind === 'merge') {
    env[MERGE_ENV] = JSON.stringify(checked(isMergeDirective, directive.runs, MERGE_ENV))
  }
  return env
}

/** The environment of a launch with this shard (or, for undefined, with the shard the environment already names). */
export function encodeShard(env: NodeJS.ProcessEnv, shard: Shard | undefined): NodeJS.ProcessEnv {
  return shard === undefined ? env : { ...env, [SHARD_ENV]: shardLabel(shard) }
}

/** The shard this launch runs, or undefined for a whole run; a value that is not i/N is refused by name. */
export function decodeShard(env: NodeJS.ProcessEnv): Shard | undefined {
  const raw = env[SHARD_ENV]
  return raw === undefined || raw === '' ? undefined : parseShard(raw, SHARD_ENV)
}

export function decodeDirective(env: NodeJS.ProcessEnv): LaunchDirective {
  const resume = env[RESUME_ENV]
  const rejudge = env[REJUDGE_ENV]
  const merge = env[MERGE_ENV]
  if (merge !== undefined && merge !== '') {
    if ((resume !== undefined && resume !== '') || (rejudge !== undefined && rejudge !== '')) {
      throw new UsageError(
        `${MERGE_ENV} is set together with ${resume !== undefined && resume !== '' ? RESUME_ENV : REJUDGE_ENV}; a launch merges shards, resumes or re-judges, one of them`,
        'Use `digline merge DIR…`, which sets it for you.',
      )
    }
    return { kind: 'merge', runs: parse(isMergeDirective, MERGE_ENV, merge, 'a JSON object of suite → { key, stores }', 'Use `digline merge DIR…`, which sets it for you.') }
  }
  if (resume !== undefined && resume !== '' && rejudge !== undefined && rejudge !== '') {
    throw new UsageError(
      `${RESUME_ENV} and ${REJUDGE_ENV} are both set; a launch resumes or re-judges, not both`,
      'Use `digline run --resume` or `digline rejudge`, which set them for you.',
    )
  }
  if (resume !== undefined && resume !== '') {
    const runs = parse(isResumeDirective, RESUME_ENV, resume, 'a JSON object of suite → key', 'Use `digline run --resume [KEY]`, which sets it for you.')
    return { kind: 'resume', runs, keepErrors: env[KEEP_ERRORS_ENV] === '1' }
  }
  if (rejudge !== undefined && rejudge !== '') {
    const value = parse(
      isRejudgeDirective,
      REJUDGE_ENV,
      rejudge,
      '{ into, suite, key, created_at, tenant, store }',
      'Use `digline rejudge --suite S --run KEY [--into T]`, which sets it for you.',
    )
    return { kind: 'rejudge', value }
  }
  const suites = env[SUITES_ENV]
  if (suites !== undefined && suites !== '') {
    return { kind: 'fresh', suites: parse(isSuitesDirective, SUITES_ENV, suites, 'a JSON array of suite names', 'Use `digline run --suite S`, which sets it for you.') }
  }
  return { kind: 'fresh' }
}

function parse<T>(check: Check<T>, name: string, raw: string, shape: string, next: string): T {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    value = undefined
  }
  if (!check(value)) throw new UsageError(`${name}=${JSON.stringify(raw)} is not ${shape}`, next, [name])
  return value
}

// mcp: the reports a launch asks of its workers, set on top of a fresh or resume directive.
const reportPath = (value: unknown): value is string => isString(value) && isAbsolute(value)

export interface LaunchReports {
  /** Each suite appends its announced bill (or its refusal) here and calls nothing. */
  plan?: string
  /** Each suite appends a line per settled case, then its outcome. */
  progress?: string
  /** suite → the calls the front end acknowledged: a suite whose bill differs (or that is not named) is refused before any call. */
  acknowledged?: Record<string, number>
}

const isAcknowledged = recordOf((value): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)

export function encodeReports(env: NodeJS.ProcessEnv, reports: LaunchReports): NodeJS.ProcessEnv {
  const out = { ...env }
  if (reports.plan !== undefined) out[PLAN_ENV] = checked(reportPath, reports.plan, PLAN_ENV)
  if (reports.progress !== undefined) out[PROGRESS_ENV] = checked(reportPath, reports.progress, PROGRESS_ENV)
  if (reports.acknowledged !== undefined) out[ACKNOWLEDGED_ENV] = JSON.stringify(checked(isAcknowledged, reports.acknowledged, ACKNOWLEDGED_ENV))
  return out
}

export function decodeReports(env: NodeJS.ProcessEnv): LaunchReports {
  const reports: LaunchReports = {}
  for (const [name, field] of [
    [PLAN_ENV, 'plan'],
    [PROGRESS_ENV, 'progress'],
  ] as const) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    if (!reportPath(raw)) throw new UsageError(`${name}=${JSON.stringify(raw)} is not an absolute path`, 'Use `digline mcp`, which sets it for you.', [name])
    reports[field] = raw
  }
  const acknowledged = env[ACKNOWLEDGED_ENV]
  if (acknowledged !== undefined && acknowledged !== '')
    reports.acknowledged = parse(isAcknowledged, ACKNOWLEDGED_ENV, acknowledged, 'a JSON object of suite → calls', 'Use `digline mcp`, which sets it for you.')
  return reports
}
