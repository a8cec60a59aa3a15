// How one suite takes part in a launch, decoded once from the environment a front end set
// (launch-directive.ts): fresh, resumed, one shard of a run, a replay, a merge of shards, or
// skipped because the launch names other suites. Plan-only and the acknowledged bill ride on a
// fresh or resumed launch as its reports (docs/adr/0100-one-suite-launch.md).
import type { RejudgeRequest } from '../lifecycle/rejudge.js'
import type { MergeRequest } from '../lifecycle/merge-shards.js'
import { decodeDirective, decodeReports, decodeShard, type LaunchReports } from './launch-directive.js'
import { casesOfShard, type Shard } from './shard.js'

/** Why a case of a plan-only launch has no result: the bill was announced and nothing was called. */
export const PLANNED_NOTE = 'planned only: the bill was announced and nothing was called'

/** A launch that asks the target: fresh or resumed, whole or one shard. */
interface CallingLaunch {
  /** This launch runs one shard of the run, and `share` are its cases; undefined for a whole run. */
  shard?: Shard
  share?: ReadonlySet<string>
  /** Where the workers report to the front end (digline mcp); a `plan` report means plan-only: nothing is called. */
  reports: LaunchReports
}

export type SuiteLaunch =
  | { kind: 'skip'; why: string }
  | (CallingLaunch & { kind: 'fresh' })
  | (CallingLaunch & { kind: 'resume'; key: string; keepErrors: boolean })
  /** A replay files in the tenant and store the rejudge command resolved (its --tenant, --store). */
  | { kind: 'rejudge'; request: RejudgeRequest; tenant: string; store: string }
  | { kind: 'merge'; request: MergeRequest }

/** What this launch does with suite `name`, whose cases are `caseIds`; a directive that does not decode is refused by name. */
export function suiteLaunchFor(name: string, caseIds: readonly string[], env: NodeJS.ProcessEnv = process.env): SuiteLaunch {
  // Only a slice by tag leaves a suite without cases: none of them carries the tag.
  if (caseIds.length === 0) return { kind: 'skip', why: 'no case of the suite carries the tag of this launch' }
  const directive = decodeDirective(env)
  if (directive.kind === 'merge') {
    const run = Object.hasOwn(directive.runs, name) ? directive.runs[name] : undefined
    return run === undefined ? { kind: 'skip', why: 'the merge files other suites' } : { kind: 'merge', request: run }
  }
  if (directive.kind === 'rejudge') {
    const d = directive.value
    if (d.into !== name) return { kind: 'skip', why: 'the rejudge replays into another suite' }
    return { kind: 'rejudge', request: { source: { suite: d.suite, key: d.key }, createdAt: d.created_at }, tenant: d.tenant, store: d.store }
  }
  const shard = decodeShard(env)
  const calling: CallingLaunch = { reports: decodeReports(env), ...(shard === undefined ? {} : { shard, share: casesOfShard(caseIds, shard) }) }
  if (directive.kind === 'resume') {
    const key = Object.hasOwn(directive.runs, name) ? directive.runs[name] : undefined
    if (key === undefined) return { kind: 'skip', why: 'the resume finishes other suites' }
    return { ...calling, kind: 'resume', key, keepErrors: directive.keepErrors }
  }
  if (directive.suites !== undefined && !directive.suites.includes(name)) return { kind: 'skip', why: 'the launch runs other suites' }
  return { ...calling, kind: 'fresh' }
}
