// ADRs 0300 and 0302: a suite's variants resolved in process: their names, the refusals, the even
// share of the budget, and one cap on the target calls in flight across all of them.
import { expect, test } from 'vitest'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { resolveSuites } from '../../../src/suite/variants.js'

const one = (): number => 1
const base = { name: 'pick', cases: [{ id: 'a', input: 1 }], scorers: [() => true] }

test('each variant is a suite named <suite>.<variant>, with its own target and the variant recorded', () => {
  const suites = resolveSuites({ ...base, variants: { small: { config: { model: 's' }, ask: () => ({ output: 1 }) }, large: async () => 2 } })
  expect(suites.map((s) => [s.name, s.variant, s.targetConfig])).toEqual([
    ['pick.small', { suite: 'pick', name: 'small', of: 2, position: 0 }, { model: 's' }],
    ['pick.large', { suite: 'pick', name: 'large', of: 2, position: 1 }, {}],
  ])
  expect(resolveSuites({ ...base, target: () => 1 })[0]!.variant).toBeUndefined()
})

test.each([
  ['target beside variants', { target: one, variants: { a: one } }, 'target is declared beside variants'],
  ['no variant', { variants: {} }, 'declares no variant'],
  ['an unsafe variant name', { variants: { 'a/b': one } }, 'variants.a/b is not a variant name'],
  ['a name past 128 characters', { variants: { ['v'.repeat(124)]: one } }, 'longer than 128 characters'],
  ['fewer budget calls than variants', { variants: { a: one, b: one, c: one }, budget: { calls: 2 } }, 'fewer than one call for each of the 3 variants'],
])('refused: %s', (_, extra, words) => {
  const attempt = () => resolveSuites({ ...base, ...extra } as never)
  expect(attempt).toThrow(InvalidSuiteError)
  expect(attempt).toThrow(words)
})

test('the budget is shared evenly: each variant gets its share of the calls and of the money', () => {
  const suites = resolveSuites({ ...base, variants: { a: () => 1, b: () => 1, c: () => 1 }, budget: { calls: 10, usd: 3 }, prices: { m: { input: 1, output: 1 } } })
  expect(suites.map((s) => s.budget)).toEqual([
    { calls: 3, usd: 1 },
    { calls: 3, usd: 1 },
    { calls: 3, usd: 1 },
  ])
})

test('the target calls in flight across all variants stay within the suite’s concurrency', async () => {
  let inFlight = 0
  let most = 0
  const slow = async () => {
    inFlight++
    most = Math.max(most, inFlight)
    await new Promise((r) => setTimeout(r, 5))
    inFlight--
    return 1
  }
  const suites = resolveSuites({ ...base, variants: { a: slow, b: slow, c: slow }, concurrency: 2 })
  const signal = new AbortController().signal
  await Promise.all(suites.flatMap((s) => Array.from({ length: 4 }, (_, i) => s.ask(i, { caseId: 'a', sample: i, signal }))))
  expect(most).toBe(2)
  // a call waiting for its turn is abandoned when its signal aborts
  const stop = new AbortController()
  const held = suites[0]!.ask(0, { caseId: 'a', sample: 0, signal })
  const held2 = suites[1]!.ask(0, { caseId: 'a', sample: 0, signal })
  const waiting = suites[2]!.ask(0, { caseId: 'a', sample: 0, signal: stop.signal })
  stop.abort(new Error('stopped'))
  await expect(waiting).rejects.toThrow('stopped')
  await Promise.all([held, held2])
})
