// ADR 0240: a minAgreement that reads as a rounded fraction is refused with the exact fractions to write.
import { expect, test } from 'vitest'
import { agreementAmbiguity } from '../../../src/suite/agreement-fraction.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { requiredPasses } from '../../../src/driver/case-verdict.js'
import { exact } from '../../../src/scorers/exact.js'

test.each([
  [0.67, 3, '2/3', '1'],
  [0.67, 6, '4/6', '5/6'],
  [0.6667, 3, '2/3', '1'],
  [0.17, 6, '1/6', '2/6'],
])('minAgreement %s of %i samples is refused: write %s or %s', (share, samples, lower, upper) => {
  const why = agreementAmbiguity(share, samples)!
  expect(why).toContain(`write minAgreement: ${lower} for`)
  expect(why).toContain(`or ${upper} for`)
})

test.each([
  [2 / 3, 3, 2],
  [0.66, 3, 2],
  [0.7, 3, 3],
  [0.5, 3, 2],
  [1, 5, 5],
  [0.7, 10, 7],
  [0.6, 3, 2],
  [0, 3, 0],
])('minAgreement %s of %i samples is accepted and asks %i', (share, samples, passes) => {
  expect(agreementAmbiguity(share, samples)).toBeUndefined()
  expect(requiredPasses(share, samples)).toBe(passes)
})

test('evalSuite refuses minAgreement 0.67 with 3 samples at minAgreement, naming 2/3', () => {
  const def = { name: 's', cases: [{ id: 'a', input: 1 }], target: (x: unknown) => x, scorers: [exact()], samples: 3, minAgreement: 0.67 }
  let caught: unknown
  try {
    resolveSuite(def as never)
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(InvalidSuiteError)
  expect((caught as InvalidSuiteError).message).toContain('write minAgreement: 2/3 for 2 of 3, or 1 for 3 of 3')
})
