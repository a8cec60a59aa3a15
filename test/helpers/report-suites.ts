// Suites for the report's tests: a baseline run of `triage`, then a worse run with two cases that
// fail, one that fails one sample of three, and one whose target throws; and `answers`, which
// records its answers. Every answer that must not reach a report without recordResponses is marked
// WRONG-ANSWER so a test can look for it.
import type { Project } from './project.js'

export const TRIAGE = `import { evalSuite, scorers } from 'digline'

const cases = Array.from({ length: 12 }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: 'ok-' + i }))
const worse = process.env.WORSE === '1'

evalSuite({
  name: 'triage',
  cases,
  target: {
    config: { model: 'counter-v1' },
    async ask(i, ctx) {
      if (worse && i === 7) throw new Error('target down: connection reset by peer')
      const wrong = worse && (i === 1 || i === 4 || (i === 10 && ctx.sample === 1))
      return { output: wrong ? 'WRONG-ANSWER-' + i : 'ok-' + i, model: 'counter-v1-2026', usage: { input_tokens: 10 + i, output_tokens: 3 } }
    },
  },
  samples: 3,
  minAgreement: 1,
  scorers: [scorers.exact()],
  tolerances: { passRate: 0.05 },
  concurrency: 4,
})
`

export const ANSWERS = `import { evalSuite, scorers } from 'digline'

evalSuite({
  name: 'answers',
  cases: [0, 1, 2].map((i) => ({ id: 'a' + i, input: i, expected: 'yes-' + i })),
  target: { config: { model: 'echo-v1' }, ask: (i) => ({ output: i === 2 ? 'RECORDED-ANSWER-2' : 'yes-' + i, model: 'echo-v1' }) },
  scorers: [scorers.exact()],
  recordResponses: true,
})
`

/** Two runs of triage (the first promoted) and one of answers; returns the worse run's key. */
export async function runReportSuites(project: Project): Promise<string> {
  project.write('evals/triage.eval.ts', TRIAGE)
  const first = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T10:00:00.000001Z' })
  if (first.code !== 0) throw new Error(`the first run failed (${first.code}): ${first.stdout}${first.stderr}`)
  const firstKey = project.runFiles('acme', 'triage')[0]!.replace(/\.json$/, '')
  const promoted = await project.digline(['promote', '--suite', 'triage', '--run', firstKey])
  if (promoted.code !== 0) throw new Error(`promote failed: ${promoted.stdout}${promoted.stderr}`)
  project.write('evals/answers.eval.ts', ANSWERS)
  // exit 2: a case errored (the run is still written)
  const worse = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-30T10:00:00.000001Z', WORSE: '1' })
  if (worse.code !== 2) throw new Error(`the worse run exited ${worse.code}: ${worse.stdout}${worse.stderr}`)
  return project.runFiles('acme', 'triage')[1]!.replace(/\.json$/, '')
}
