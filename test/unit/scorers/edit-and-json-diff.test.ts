// The two deterministic scorers of the library: normalised edit distance and the field-wise JSON diff.
import { describe, expect, it } from 'vitest'
import { editDistance, levenshtein, similarity } from '../../../src/scorers/edit-distance.js'
import { jsonDiff, leaves } from '../../../src/scorers/json-diff.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { hashWith, score } from './helpers.js'

describe('scorers.editDistance', () => {
  it('is Levenshtein over code points, normalised by the longer string', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3)
    expect(levenshtein('', 'abc')).toBe(3)
    expect(levenshtein('flaw', 'lawn')).toBe(2)
    expect(levenshtein('naïve 😀', 'naive 😀')).toBe(1)
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 12)
    expect(similarity('', '')).toBe(1)
    expect(similarity('abc', 'xyz')).toBe(0)
  })

  it('passes at passAt (default 0.8), with trim and caseInsensitive', async () => {
    expect(await score(editDistance(), 'Paris', 'Paris')).toEqual({ pass: true, score: 1 })
    expect(await score(editDistance(), 'Pariss', 'Paris')).toEqual({ pass: true, score: 5 / 6, reason: '1 edits over 6 characters: similarity 0.83' })
    expect(await score(editDistance(), 'kitten', 'sitting')).toMatchObject({ pass: false, reason: '3 edits over 7 characters: similarity 0.57, below pass_at 0.80' })
    expect((await score(editDistance({ passAt: 0.5 }), 'kitten', 'sitting')).pass).toBe(true)
    expect((await score(editDistance({ trim: true, caseInsensitive: true }), '  PARIS ', 'paris')).score).toBe(1)
    expect(editDistance().passAt).toBe(0.8)
  })

  it('a non-string output fails, a non-string expected value errors the case, neither quoted unrecorded', async () => {
    expect(await score(editDistance(), { city: 'Jane' }, 'Paris', false)).toEqual({ pass: false, score: 0, reason: 'output is not a string: got an object' })
    await expect(score(editDistance(), 'x', { secret: 'Jane' }, false)).rejects.toThrow("the case's expected value (an object) is not a string to compare with")
    expect(() => editDistance({ passAt: 2 })).toThrow(InvalidSuiteError)
    expect(hashWith(editDistance())).not.toBe(hashWith(editDistance({ passAt: 0.9 })))
  })
})

describe('scorers.jsonDiff', () => {
  const expected = { name: 'Ada', age: 36, tags: ['x', 'y'], address: { city: 'London', zip: 'N1' } }

  it('pairs leaves by path and scores the matching share; every field must match by default', async () => {
    expect([...leaves(expected).keys()]).toEqual(['name', 'age', 'tags[0]', 'tags[1]', 'address.city', 'address.zip'])
    expect(await score(jsonDiff(), JSON.stringify(expected), expected)).toEqual({ pass: true, score: 1 })
    const off = { name: 'Ada', age: 37, tags: ['x'], address: { city: 'London', zip: 'N1' }, extra: true }
    // 7 paths in all: age differs, tags[1] missing, extra not expected
    expect(await score(jsonDiff(), off, expected)).toEqual({
      pass: false,
      score: 4 / 7,
      reason: '4 of 7 fields match (0.57): age: expected 36, got 37; tags[1] missing; extra not expected',
    })
    expect((await score(jsonDiff({ passAt: 0.5 }), off, expected)).pass).toBe(true)
  })

  it('numbers match within tolerance; a JSON string expected value is parsed too', async () => {
    expect((await score(jsonDiff({ tolerance: 0.01 }), { p: 1.005 }, { p: 1 })).pass).toBe(true)
    expect((await score(jsonDiff(), { p: 1.005 }, '{"p":1}')).pass).toBe(false)
  })

  it('unrecorded: counts, never a field name or a value', async () => {
    const reason = (await score(jsonDiff(), { ssn: '078-05-1120', who: 'Jane' }, { who: 'Jane Roe', email: 'jane@example.com' }, false)).reason!
    expect(reason).toBe('0 of 3 fields match (0.00): 1 differ, 1 missing, 1 extra (fields are not named, as answers are not recorded; the output is an object)')
    for (const secret of ['ssn', '078', 'Jane', 'email', 'who']) expect(reason).not.toContain(secret)
    expect((await score(jsonDiff(), 'not json Jane', { a: 1 }, false)).reason).toBe('output is not JSON: got a string (not quoted, as answers are not recorded)')
    await expect(score(jsonDiff(), {}, undefined)).rejects.toThrow(/no expected value/)
  })
})
