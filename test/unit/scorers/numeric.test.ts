import { describe, expect, it } from 'vitest'
import { numeric } from '../../../src/scorers/numeric.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { hashWith, score } from './helpers.js'

describe('scorers.numeric', () => {
  it('passes within the absolute tolerance, inclusive, and fails outside it', async () => {
    expect(await score(numeric({ tolerance: 0.01 }), 3.14, 3.14159)).toEqual({ pass: true, score: 1 })
    expect((await score(numeric({ tolerance: 0.5 }), 10.5, 10)).pass).toBe(true)
    expect(await score(numeric({ tolerance: 0.01 }), 3.2, 3.14)).toEqual({ pass: false, score: 0, reason: 'expected 3.14 ± 0.01, got 3.2' })
  })

  it('tolerance 0 is exact, without float noise failing it', async () => {
    expect((await score(numeric({ tolerance: 0 }), 0.1 + 0.2, 0.3)).pass).toBe(true)
    expect((await score(numeric({ tolerance: 0 }), 0.31, 0.3)).pass).toBe(false)
  })

  it('relative tolerance is a share of |expected|', async () => {
    expect((await score(numeric({ tolerance: 0.05, relative: true }), 104, 100)).pass).toBe(true)
    expect((await score(numeric({ tolerance: 0.05, relative: true }), -94, -100)).reason).toBe('expected -100 ± 5%, got -94')
  })

  it('reads numbers out of strings, and fails an output that is not one', async () => {
    expect((await score(numeric({ tolerance: 0 }), ' 42 ', '42')).pass).toBe(true)
    expect(await score(numeric({ tolerance: 1 }), 'forty-two', 42)).toEqual({ pass: false, score: 0, reason: 'output is not a number: got "forty-two"' })
    expect((await score(numeric({ tolerance: 1 }), '', 0)).pass).toBe(false)
  })

  it('throws for a non-numeric expected value, and refuses a bad tolerance', async () => {
    await expect(score(numeric({ tolerance: 1 }), 1, 'n/a')).rejects.toThrow(/not a number/)
    expect(() => numeric({ tolerance: -1 })).toThrow(InvalidSuiteError)
    expect(() => numeric({ tolerance: Number.NaN })).toThrow(InvalidSuiteError)
    expect(() => numeric(undefined as never)).toThrow(InvalidSuiteError)
  })

  it('has config { tolerance, relative }; both move the hash', () => {
    expect(numeric({ tolerance: 0.1 }).config).toEqual({ tolerance: 0.1, relative: false })
    expect(hashWith(numeric({ tolerance: 0.1 }))).toBe(hashWith(numeric({ tolerance: 0.1, relative: false })))
    expect(hashWith(numeric({ tolerance: 0.1 }))).not.toBe(hashWith(numeric({ tolerance: 0.2 })))
    expect(hashWith(numeric({ tolerance: 0.1 }))).not.toBe(hashWith(numeric({ tolerance: 0.1, relative: true })))
  })
})
