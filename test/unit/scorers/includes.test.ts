import { describe, expect, it } from 'vitest'
import { includes } from '../../../src/scorers/includes.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { hashWith, score } from './helpers.js'

describe('scorers.includes', () => {
  it('passes when the output contains the expected string', async () => {
    expect(await score(includes(), 'The capital is Paris.', 'Paris')).toEqual({ pass: true, score: 1 })
    expect(await score(includes(), 'The capital is Lyon.', 'Paris')).toEqual({
      pass: false,
      score: 0,
      reason: '"The capital is Lyon." does not contain "Paris"',
    })
  })

  it('needs every element of an array expected, naming the first missing one', async () => {
    expect((await score(includes(), 'red, green and blue', ['red', 'blue'])).pass).toBe(true)
    expect((await score(includes(), 'red and blue', ['red', 'green', 'yellow'])).reason).toBe('"red and blue" does not contain "green"')
  })

  it('uses a fixed needle instead of expected when given one', async () => {
    expect((await score(includes('Paris'), 'in Paris', 'ignored')).pass).toBe(true)
    expect((await score(includes('Paris'), 'in Lyon', 'Lyon')).pass).toBe(false)
    expect((await score(includes(['a', 'b']), 'ab')).pass).toBe(true)
  })

  it('folds case when asked, with or without a fixed needle', async () => {
    expect((await score(includes(), 'PARIS', 'paris')).pass).toBe(false)
    expect((await score(includes({ caseInsensitive: true }), 'PARIS', 'paris')).pass).toBe(true)
    expect((await score(includes('paris', { caseInsensitive: true }), 'PARIS')).pass).toBe(true)
  })

  it('fails a non-string output', async () => {
    expect(await score(includes(), 42, '4')).toEqual({ pass: false, score: 0, reason: 'output is not a string: got 42' })
  })

  it('throws for an expected value it cannot search for, and refuses an empty fixed needle', async () => {
    await expect(score(includes(), 'text')).rejects.toThrow(/cannot be searched for/)
    await expect(score(includes(), 'text', [])).rejects.toThrow(/empty array/)
    await expect(score(includes(), 'text', 7)).rejects.toThrow(/neither a string/)
    expect(() => includes('')).toThrow(InvalidSuiteError)
  })

  it('describes itself in its config; needle and case folding move the hash', () => {
    expect(includes().config).toEqual({ needle: null, case_insensitive: false })
    expect(includes(['a', 'b'], { caseInsensitive: true }).config).toEqual({ needle: ['a', 'b'], case_insensitive: true })
    expect(hashWith(includes())).toBe(hashWith(includes({ caseInsensitive: false })))
    expect(hashWith(includes())).not.toBe(hashWith(includes({ caseInsensitive: true })))
    expect(hashWith(includes('Paris'))).not.toBe(hashWith(includes('Lyon')))
    expect(hashWith(includes('Paris'))).not.toBe(hashWith(includes()))
  })
})
