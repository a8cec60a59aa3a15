import { describe, expect, it } from 'vitest'
import { exact } from '../../../src/scorers/exact.js'
import { scorers } from '../../../src/scorers/index.js'
import { hashWith, score } from './helpers.js'

describe('scorers.exact', () => {
  it('is exported under scorers', () => {
    // Contains, not equals: other scorer families (tool calls) add their own names.
    const library = ['exact', 'includes', 'json', 'llmJudge', 'numeric', 'regex', 'factuality', 'closedQa', 'answerRelevance', 'faithfulness', 'contextPrecision', 'contextRecall']
    expect(Object.keys(scorers)).toEqual(expect.arrayContaining([...library, 'embeddingSimilarity', 'editDistance', 'jsonDiff', 'toolCalls']))
    expect(scorers.exact).toBe(exact)
  })

  it('passes equal strings and fails others with a short reason', async () => {
    expect(await score(exact(), 'Paris', 'Paris')).toEqual({ pass: true, score: 1 })
    expect(await score(exact(), 'Lyon', 'Paris')).toEqual({ pass: false, score: 0, reason: 'expected "Paris", got "Lyon"' })
    expect((await score(exact(), ' Paris', 'Paris')).pass).toBe(false)
    expect((await score(exact(), 'paris', 'Paris')).pass).toBe(false)
  })

  it('trims and folds case only when asked', async () => {
    expect((await score(exact({ trim: true }), '  Paris\n', 'Paris')).pass).toBe(true)
    expect((await score(exact({ caseInsensitive: true }), 'PARIS', 'paris')).pass).toBe(true)
    expect((await score(exact({ trim: true, caseInsensitive: true }), ' PARIS ', 'paris ')).pass).toBe(true)
  })

  it('compares other values by canonical JSON (key order does not matter)', async () => {
    expect((await score(exact(), { b: 2, a: [1, { c: 3, d: 4 }] }, { a: [1, { d: 4, c: 3 }], b: 2 })).pass).toBe(true)
    expect((await score(exact(), 42, 42)).pass).toBe(true)
    expect(await score(exact(), 42, '42')).toEqual({ pass: false, score: 0, reason: 'expected "42", got 42' })
    expect((await score(exact(), [1, 2], [2, 1])).pass).toBe(false)
  })

  it('cuts long values in its reason to about 80 characters', async () => {
    const long = 'x'.repeat(500)
    const { reason } = await score(exact(), long, 'short')
    expect(reason!.length).toBe('expected "short", got '.length + 80)
    expect(reason).toMatch(/^expected "short", got "x+…$/)
  })

  it('throws (a scorer error) for a case with no expected value', async () => {
    await expect(score(exact(), 'Paris')).rejects.toThrow(/no expected value/)
  })

  it('describes itself fully in its config, and the config moves the hash', () => {
    expect(exact().config).toEqual({ trim: false, case_insensitive: false })
    expect(exact().name).toBe('exact')
    expect(hashWith(exact())).toBe(hashWith(exact({ trim: false, caseInsensitive: false })))
    expect(hashWith(exact())).not.toBe(hashWith(exact({ trim: true })))
    expect(hashWith(exact({ trim: true }))).not.toBe(hashWith(exact({ caseInsensitive: true })))
    expect(hashWith(exact())).not.toBe(hashWith(exact({ name: 'strict' })))
  })
})
