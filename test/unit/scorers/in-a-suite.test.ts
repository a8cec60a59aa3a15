// The built-in scorers as a suite file uses them: typed into a definition, run by the driver.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { execute } from '../../../src/driver/execute.js'
import { scorers } from '../../../src/scorers/index.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'

describe('built-in scorers in a suite', () => {
  it('type-check against a typed definition and produce verdicts with their reasons', async () => {
    const definition: SuiteDefinition<string, string, string> = {
      name: 'capitals',
      cases: [
        { id: 'france', input: 'France', expected: 'Paris' },
        { id: 'peru', input: 'Peru', expected: 'Lima' },
      ],
      target: (input) => (input === 'France' ? '{"city":"Paris"}' : '{"city":"Quito"}'),
      scorers: [scorers.includes(), scorers.json(z.object({ city: z.string() })), scorers.regex(/city/, { name: 'has-city' })],
    }
    const { results } = await execute({ suite: resolveSuite(definition) })
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'fail'])
    expect(results[1]!.reason).toBe(
      '0/1 samples passed; sample 0, includes: the output does not contain the expected value (the output is not quoted, as answers are not recorded)',
    )
    const recorded = await execute({ suite: resolveSuite({ ...definition, recordResponses: true }) })
    expect(recorded.results[1]!.reason).toBe('0/1 samples passed; sample 0, includes: "{\\"city\\":\\"Quito\\"}" does not contain "Lima"')
    expect(results[1]!.samples[0]!.scorers.map((s) => [s.name, s.pass])).toEqual([
      ['includes', false],
      ['json', true],
      ['has-city', true],
    ])
  })

  it('a scorer that throws for a missing expected value errors the case (cause scorer)', async () => {
    const { results } = await execute({
      suite: resolveSuite({ name: 's', cases: [{ id: 'a', input: 1 }], target: () => 'x', scorers: [scorers.exact()] }),
    })
    expect(results[0]!.error).toEqual({ cause: 'scorer', message: 'sample 0 of 1, scorer "exact": the case declares no expected value to compare the output with' })
  })
})
