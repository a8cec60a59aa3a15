// Which evalSuite definitions are refused before anything runs: each is an InvalidSuiteError (exit 64)
// naming the field. test/e2e/exit-codes.test.ts proves the wiring once (a refused definition in a
// real `vitest run` and `digline run` exits 64, prints `digline exit 64` and writes nothing).
import { expect, test } from 'vitest'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { exact } from '../../../src/scorers/exact.js'

const valid = { name: 'bad', cases: [{ id: 'a', input: 1, expected: 1 }], target: async (x: unknown) => x, scorers: [exact()] }

test.each([
  ['an unsafe suite name', { name: '../escape' }, 'name'],
  ['samples < 1', { samples: 0 }, 'samples'],
  ['minAgreement outside 0..1', { minAgreement: 1.5 }, 'minAgreement'],
  [
    'duplicate case ids',
    {
      cases: [
        { id: 'a', input: 1 },
        { id: 'a', input: 2 },
      ],
    },
    'cases',
  ],
] as const)('%s is refused by name (InvalidSuiteError)', (_label, fields, field) => {
  let thrown: unknown
  try {
    resolveSuite({ ...valid, ...fields } as never)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(InvalidSuiteError)
  expect((thrown as InvalidSuiteError).exitCode).toBe(64)
  expect((thrown as Error).message).toContain(field)
})

test('the valid definition these rows change is accepted', () => {
  expect(resolveSuite(valid as never).name).toBe('bad')
})
