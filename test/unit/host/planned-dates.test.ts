// Which fresh run takes the created_at of the plan it acknowledges (issue 23 item 20): the run of
// the plan's suites with the plan's calls, each suite once; any other run takes the time it starts.
import { expect, test } from 'vitest'
import { PlannedDates, type LaunchBill } from '../../../src/host/index.js'

const AT = '2026-12-02T01:00:00.000000Z'

function bill(calls: Record<string, number>): LaunchBill {
  const suites = Object.entries(calls).map(([suite, n]) => ({
    suite,
    key: `k-${suite}`,
    announcement: '',
    plan: { calls: n } as LaunchBill['suites'][number]['plan'],
  }))
  return { calls: suites.reduce((sum, s) => sum + s.plan.calls, 0), suites, passedOver: [] }
}

function planned(scope: string | undefined, calls: Record<string, number>): PlannedDates {
  const dates = new PlannedDates()
  dates.remember(AT, scope, bill(calls))
  return dates
}

interface Row {
  why: string
  scope: string | undefined
  calls: Record<string, number>
  runs: [string | undefined, number][]
  takes: (string | undefined)[]
}

test.each<Row>([
  { why: 'every suite, with the plan of every suite', scope: undefined, calls: { a: 3, b: 4 }, runs: [[undefined, 7]], takes: [AT] },
  {
    why: 'one suite of a plan of every suite, then the other',
    scope: undefined,
    calls: { a: 3, b: 4 },
    runs: [
      ['a', 3],
      ['b', 4],
    ],
    takes: [AT, AT],
  },
  {
    why: 'the same suite twice: its key is written by then',
    scope: 'a',
    calls: { a: 3 },
    runs: [
      ['a', 3],
      ['a', 3],
    ],
    takes: [AT, undefined],
  },
  {
    why: 'every suite after one of them ran: that one would find its key written',
    scope: undefined,
    calls: { a: 3, b: 4 },
    runs: [
      ['a', 3],
      [undefined, 4],
    ],
    takes: [AT, undefined],
  },
  {
    why: 'another number of calls than the plan announced',
    scope: undefined,
    calls: { a: 3 },
    runs: [
      [undefined, 2],
      [undefined, 3],
    ],
    takes: [undefined, AT],
  },
  { why: 'every suite, with the plan of one', scope: 'a', calls: { a: 3 }, runs: [[undefined, 3]], takes: [undefined] },
  { why: 'a suite the plan did not have', scope: undefined, calls: { a: 3 }, runs: [['b', 3]], takes: [undefined] },
])('$why', ({ scope, calls, runs, takes }) => {
  const dates = planned(scope, calls)
  expect(runs.map(([suite, n]) => dates.take(suite, n))).toEqual(takes)
})

test('no plan, no date; DIGLINE_CREATED_AT fixes the date itself, so a plan takes none', () => {
  const dates = new PlannedDates()
  expect(dates.take(undefined, 0)).toBeUndefined()
  expect(dates.dateOfPlan({ DIGLINE_CREATED_AT: AT })).toBeUndefined()
  expect(dates.dateOfPlan({})).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
})
