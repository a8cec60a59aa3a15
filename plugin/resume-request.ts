// How `digline run --resume` tells the workers what to finish: DIGLINE_RESUME is a JSON object
// { "<suite>": "<key>" }; suites not named there are skipped in that launch.
import { UsageError } from '../src/errors.js'

export type ResumeDirective = { kind: 'fresh' } | { kind: 'skip' } | { kind: 'resume'; key: string; keepErrors: boolean }

export function resumeDirective(suite: string, env: NodeJS.ProcessEnv = process.env): ResumeDirective {
  const raw = env.DIGLINE_RESUME
  if (raw === undefined || raw === '') return { kind: 'fresh' }
  let map: unknown
  try {
    map = JSON.parse(raw)
  } catch {
    map = undefined
  }
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    throw new UsageError(`DIGLINE_RESUME=${JSON.stringify(raw)} is not a JSON object of suite → key`, 'Use `digline run --resume [KEY]`, which sets it for you.')
  }
  const key = (map as Record<string, unknown>)[suite]
  if (typeof key !== 'string') return { kind: 'skip' }
  return { kind: 'resume', key, keepErrors: env.DIGLINE_KEEP_ERRORS === '1' }
}
