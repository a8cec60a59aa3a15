// How `digline run --resume` tells the workers what to finish (src/host/launch/launch-directive.ts):
// suites not named in the directive are skipped in that launch.
import { decodeDirective } from '../src/host/index.js'

export type ResumeDirective = { kind: 'fresh' } | { kind: 'skip' } | { kind: 'resume'; key: string; keepErrors: boolean }

export function resumeDirective(suite: string, env: NodeJS.ProcessEnv = process.env): ResumeDirective {
  const directive = decodeDirective(env)
  if (directive.kind !== 'resume') return { kind: 'fresh' }
  const key = Object.hasOwn(directive.runs, suite) ? directive.runs[suite] : undefined
  if (key === undefined) return { kind: 'skip' }
  return { kind: 'resume', key, keepErrors: directive.keepErrors }
}
