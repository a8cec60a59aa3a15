// A case type brings its own sample step and execute's loop runs it unchanged: the calls it counts
// are the run's calls, a CaseError errors its case, the budget and the hooks see it as any case.
import { describe, expect, it } from 'vitest'
import { jsonValue } from '../../../src/driver/single-answer-step.js'
import { execute } from '../../../src/driver/execute.js'
import { CaseError, singleAnswerStep, type SampleStep } from '../../../src/driver/index.js'
import type { CaseProgress } from '../../../src/document/case-progress.js'
import { counted, suiteOf } from './fixture.js'

const cases = ['a', 'b', 'c'].map((id) => ({ id, input: id, expected: id }))

describe('execute takes the sample step', () => {
  it('runs a step of two calls per sample (a scripted conversation): every call counted, the loop untouched', async () => {
    const { target, calls } = counted((input, ctx) => `${String(input)}:${ctx.sample}`)
    const twoTurns: SampleStep = async (context, sample) => {
      const turns: unknown[] = []
      for (let turn = 0; turn < 2; turn++) {
        context.calls.count++
        turns.push((await context.suite.ask(context.evalCase.input, { caseId: context.evalCase.id, sample, signal: context.stop.signal })).output)
      }
      if (context.evalCase.id === 'c') throw new CaseError('target', `sample ${sample}: the conversation ended early`)
      return { pass: turns.length === 2, score: 1, scorers: [{ name: 'turns', pass: true, score: 1, reason: null }] }
    }
    const kept: CaseProgress[] = []
    const { results, targetCalls } = await execute({ suite: suiteOf({ cases, target, samples: 2, concurrency: 1 }), step: twoTurns, keep: async (p) => void kept.push(p) })
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'pass', 'error'])
    expect(results[2]!.error).toEqual({ cause: 'target', message: 'sample 0: the conversation ended early' })
    expect(calls).toHaveLength(2 * 2 + 2 * 2 + 2)
    expect(targetCalls).toBe(calls.length)
    expect(kept.map((p) => p.result.case_id)).toEqual(['a', 'b', 'c'])
  })

  it('the default is the single-answer step', async () => {
    const { target } = counted((input) => input)
    const byDefault = await execute({ suite: suiteOf({ cases, target }) })
    const named = await execute({ suite: suiteOf({ cases, target }), step: singleAnswerStep })
    expect(named.results).toEqual(byDefault.results)
    expect(byDefault.targetCalls).toBe(3)
  })

  it('scores a sample before the next one is asked: a case a scorer errors pays for no further sample', async () => {
    const { target, calls } = counted((input) => input)
    const failing = { name: 'broken', score: () => Promise.reject(new Error('judge down')) }
    const { results } = await execute({ suite: suiteOf({ cases: cases.slice(0, 1), target, samples: 3, scorers: [failing] }) })
    expect(results[0]!.error).toEqual({ cause: 'scorer', message: 'sample 0 of 3, scorer "broken": judge down' })
    expect(calls).toHaveLength(1)
  })
})

describe('jsonValue', () => {
  it('gives a value back as JSON would, taking the short way for a string, a boolean, null and a finite number', () => {
    const text = 'Lima \u00e9 \ud83d\ude00 \ud800 "quoted"'
    expect(jsonValue(text)).toBe(text)
    expect(jsonValue(true)).toBe(true)
    expect(jsonValue(null)).toBeNull()
    expect(jsonValue(0.1)).toBe(0.1)
    expect(jsonValue(1e21)).toBe(1e21)
    expect(Object.is(jsonValue(-0), 0)).toBe(true)
    expect(jsonValue(Number.NaN)).toBeNull()
    expect(jsonValue(Number.POSITIVE_INFINITY)).toBeNull()
    expect(jsonValue(undefined)).toBeUndefined()
    const nested = { a: [1, -0, Number.NaN, 'x'], b: undefined, c: { toJSON: () => 'c' } }
    expect(jsonValue(nested)).toEqual({ a: [1, 0, null, 'x'], c: 'c' })
    for (const value of [text, true, null, 0.1, 1e21, -0, Number.NaN, 42, -7.5]) expect(jsonValue(value)).toEqual(JSON.parse(JSON.stringify(value)))
  })
})
