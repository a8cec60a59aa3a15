// How `digline rejudge` tells the workers what to replay: DIGLINE_REJUDGE is a JSON object
// { into, suite, key, created_at, tenant, store }. Suite `into` replays run `key` of `suite` from
// the tenant and store the command resolved (and files the replay there); every other suite is
// skipped in that launch, as a resume skips the suites it does not finish.
import { isAbsolute } from 'node:path'
import { UsageError } from '../src/errors.js'
import { REJUDGE_ENV, type RejudgeEnv, type RejudgeRequest } from '../src/host/rejudge.js'
import { isCreatedAt } from '../src/suite/keys.js'
import { isSafeSegment } from '../src/suite/safe-segment.js'

export type RejudgeDirective = { kind: 'none' } | { kind: 'skip' } | { kind: 'rejudge'; request: RejudgeRequest; tenant: string; storeRoot: string }

export function rejudgeDirective(suite: string, env: NodeJS.ProcessEnv = process.env): RejudgeDirective {
  const raw = env[REJUDGE_ENV]
  if (raw === undefined || raw === '') return { kind: 'none' }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    value = undefined
  }
  const v = (value ?? {}) as Record<string, unknown>
  const valid = [v.into, v.suite, v.key, v.tenant].every(isSafeSegment) && typeof v.created_at === 'string' && isCreatedAt(v.created_at) && typeof v.store === 'string' && isAbsolute(v.store)
  if (!valid) {
    throw new UsageError(`${REJUDGE_ENV}=${JSON.stringify(raw)} is not { into, suite, key, created_at, tenant, store }`, 'Use `digline rejudge --suite S --run KEY [--into T]`, which sets it for you.')
  }
  const d = v as unknown as RejudgeEnv
  if (d.into !== suite) return { kind: 'skip' }
  return { kind: 'rejudge', request: { source: { suite: d.suite, key: d.key }, createdAt: d.created_at }, tenant: d.tenant, storeRoot: d.store }
}
