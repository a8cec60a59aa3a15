// Hints printed after a run name only commands that would be accepted in that state (SPEC §7):
// never `digline promote` for a replay or a run that was not judged; no `…` placeholders.
import { expect, test } from 'vitest'
import { formatOutcome } from '../../../src/host/judge/format-outcome.js'
import type { SuiteOutcome } from '../../../src/host/judge/suite-outcome.js'

const KEY = '20261129T223956123456Z-07351270b932'

function outcome(over: Partial<SuiteOutcome> = {}, errored = 0): SuiteOutcome {
  const notPassed = Array.from({ length: 25 }, (_, i) => ({ case_id: `c${i}`, verdict: 'fail' as const, score: 0, reason: 'no' }))
  return {
    suite: 's',
    tenant: 'acme',
    key: KEY,
    status: errored > 0 ? 'errored' : 'missed',
    aggregates: {
      cases: 30,
      samples_per_case: 1,
      passed: 5,
      failed: 25 - errored,
      errored,
      pass_rate: 5 / 30,
      pass_rate_ci95: null,
      mean_score: null,
    } as unknown as SuiteOutcome['aggregates'],
    misses: [],
    location: `/p/.digline/acme/runs/s/${KEY}.json`,
    notPassed,
    ...over,
  }
}

test('a judged run without a baseline: the promote hint names the run', () => {
  expect(formatOutcome(outcome())).toContain(`digline promote --suite s --run ${KEY}`)
})

test('a run with an errored case: no promote hint', () => {
  const text = formatOutcome(outcome({}, 2))
  expect(text).not.toContain('digline promote')
  expect(text).toContain('never promoted')
})

test('a replay: no promote hint', () => {
  const text = formatOutcome(outcome({ replayOf: '20261120T100000000001Z-07351270b932' }))
  expect(text).not.toContain('digline promote')
})

test('a run with cached answers: says how many, and no promote hint (promote refuses it)', () => {
  const text = formatOutcome(outcome({ cachedAnswers: 12 }))
  expect(text).toContain('12 answers came from the response cache')
  expect(text).not.toContain('digline promote')
  expect(text).toContain('digline run --no-cache')
})

test('the case list names the real suite and key, never placeholders', () => {
  const text = formatOutcome(outcome())
  expect(text).toContain(`digline show --suite s --run ${KEY} --all`)
  expect(text).not.toContain('…  --run …')
  expect(text).not.toMatch(/--suite … --run …/)
})
