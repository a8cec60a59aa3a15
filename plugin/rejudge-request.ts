// How `digline rejudge` tells the workers what to replay (src/host/launch/launch-directive.ts): suite
// `into` replays run `key` of `suite` from the tenant and store the command resolved (and files the
// replay there); every other suite is skipped in that launch.
import { decodeDirective } from '../src/host/index.js'
import type { RejudgeRequest } from '../src/host/index.js'

export type RejudgeDirective = { kind: 'none' } | { kind: 'skip' } | { kind: 'rejudge'; request: RejudgeRequest; tenant: string; storeRoot: string }

export function rejudgeDirective(suite: string, env: NodeJS.ProcessEnv = process.env): RejudgeDirective {
  const directive = decodeDirective(env)
  if (directive.kind !== 'rejudge') return { kind: 'none' }
  const d = directive.value
  if (d.into !== suite) return { kind: 'skip' }
  return { kind: 'rejudge', request: { source: { suite: d.suite, key: d.key }, createdAt: d.created_at }, tenant: d.tenant, storeRoot: d.store }
}
