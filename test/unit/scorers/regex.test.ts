import { describe, expect, it } from 'vitest'
import { regex } from '../../../src/scorers/regex.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { hashWith, score } from './helpers.js'

describe('scorers.regex', () => {
  it('passes a matching string and fails others naming the pattern', async () => {
    expect(await score(regex(/^\d{4}-\d{2}$/), '2026-11')).toEqual({ pass: true, score: 1 })
    expect(await score(regex(/^\d{4}-\d{2}$/), 'Nov 2026')).toEqual({ pass: false, score: 0, reason: '"Nov 2026" does not match /^\\d{4}-\\d{2}$/' })
  })

  it('accepts a string pattern and honours flags', async () => {
    expect((await score(regex('paris'), 'PARIS')).pass).toBe(false)
    expect((await score(regex(/paris/i), 'PARIS')).pass).toBe(true)
  })

  it('gives the same answer on every call for a /g pattern', async () => {
    const scorer = regex(/a/g)
    for (let i = 0; i < 3; i++) expect((await score(scorer, 'a')).pass).toBe(true)
  })

  it('fails a non-string output, and refuses an invalid pattern', async () => {
    expect((await score(regex(/x/), { x: 1 })).reason).toBe('output is not a string: got {"x":1}')
    expect(() => regex('(')).toThrow(InvalidSuiteError)
  })

  it('has config { source, flags }; source and flags move the hash', () => {
    expect(regex(/a+b/gi).config).toEqual({ source: 'a+b', flags: 'gi' })
    expect(regex('a+b').config).toEqual({ source: 'a+b', flags: '' })
    expect(hashWith(regex('a+b'))).toBe(hashWith(regex(/a+b/)))
    expect(hashWith(regex(/a/))).not.toBe(hashWith(regex(/a/i)))
    expect(hashWith(regex(/a/))).not.toBe(hashWith(regex(/b/)))
  })
})
