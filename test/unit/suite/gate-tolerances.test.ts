// The new tolerances (ADR 0065): a suite that does not use them keeps the config_hash it had before
// they existed; one that does gets another, and a cost tolerance without prices is refused.
import { describe, expect, test } from 'vitest'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { resolveSuite, suiteIdentity } from '../../../src/suite/resolve-suite.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'

const suite = (extra: Partial<SuiteDefinition> = {}): SuiteDefinition => ({
  name: 'capitals',
  cases: [{ id: 'a', input: 1 }],
  target: (x: unknown) => x,
  scorers: [
    function exact() {
      return true
    },
  ],
  ...extra,
})

describe('config_hash', () => {
  // Both values were computed by the digline of main before the new tolerances (dist/ of /work/main).
  test('suites without the new tolerances keep the hashes they had', () => {
    expect(suiteIdentity(resolveSuite(suite())).configHash).toBe('adfd3cda259f')
    const rules = { samples: 3, minAgreement: 0.6, thresholds: { passRate: 0.8 }, tolerances: { passRate: 0.05, meanScore: 0.02 } }
    expect(suiteIdentity(resolveSuite(suite(rules))).configHash).toBe('bdb96f1608ee')
  })

  test('each new tolerance is a rule: declaring it, or changing it, moves the hash', () => {
    const hashes = [
      suite(),
      suite({ tolerances: { tokensPerCase: 0.1 } }),
      suite({ tolerances: { tokensPerCase: 0.2 } }),
      suite({ tolerances: { latencyPerCase: 0.1 } }),
      suite({ tolerances: { costPerCase: 0.1 }, prices: { m: { input: 1, output: 2 } } }),
    ].map((s) => suiteIdentity(resolveSuite(s)).configHash)
    expect(new Set(hashes).size).toBe(hashes.length)
  })
})

describe('refusals', () => {
  test('costPerCase without prices is refused, naming the field', () => {
    expect(() => resolveSuite(suite({ tolerances: { costPerCase: 0.1 } }))).toThrow(InvalidSuiteError)
    expect(() => resolveSuite(suite({ tolerances: { costPerCase: 0.1 } }))).toThrow(/tolerances\.costPerCase needs `prices`/)
  })

  test('a negative rise and an unknown tolerance are refused', () => {
    expect(() => resolveSuite(suite({ tolerances: { tokensPerCase: -0.1 } }))).toThrow(InvalidSuiteError)
    expect(() => resolveSuite(suite({ tolerances: { latencyP50: 0.1 } as never }))).toThrow(InvalidSuiteError)
  })
})
