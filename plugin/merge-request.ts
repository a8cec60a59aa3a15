// How `digline merge` tells the workers what to file (src/host/launch/launch-directive.ts): suite → the run
// to file from its shards' journals; every other suite is skipped in that launch.
import { decodeDirective } from '../src/host/index.js'
import type { MergeRequest } from '../src/host/index.js'

export type MergeDirective = { kind: 'none' } | { kind: 'skip' } | { kind: 'merge'; request: MergeRequest }

export function mergeDirective(suite: string, env: NodeJS.ProcessEnv = process.env): MergeDirective {
  const directive = decodeDirective(env)
  if (directive.kind !== 'merge') return { kind: 'none' }
  const run = Object.hasOwn(directive.runs, suite) ? directive.runs[suite] : undefined
  return run === undefined ? { kind: 'skip' } : { kind: 'merge', request: run }
}
