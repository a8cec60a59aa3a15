import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import type { CaseResult } from '../../../src/document/schema.js'
import { InternalError } from '../../../src/errors/base.js'
import { counted, echoCases, suiteOf } from './fixture.js'

function judged(caseId: string, verdict: 'pass' | 'fail' = 'pass'): CaseResult {
  const pass = verdict === 'pass'
  return {
    case_id: caseId,
    verdict,
    score: pass ? 1 : 0,
    passed_samples: pass ? 1 : 0,
    reason: pass ? null : 'from the journal',
    error: null,
    samples: [{ pass, score: pass ? 1 : 0, scorers: [{ name: 'exact', pass, score: pass ? 1 : 0, reason: null }] }],
  }
}

const ids = (results: CaseResult[]): string[] => results.map((r) => r.case_id)

describe('execute: done', () => {
  it('does not call done cases and places them at the suite positions', async () => {
    const { target, calls } = counted((input) => input)
    const done = new Map([
      ['c003', judged('c003', 'fail')],
      ['c001', judged('c001', 'fail')],
    ])
    const progress: string[] = []
    const { results, targetCalls } = await execute({
      suite: suiteOf({ cases: echoCases(5), target }),
      done,
      onCase: (p) => void progress.push(p.result.case_id),
    })
    expect(ids(results)).toEqual(['c000', 'c001', 'c002', 'c003', 'c004'])
    expect(results[1]).toBe(done.get('c001'))
    expect(results[3]).toBe(done.get('c003'))
    expect(calls.map((c) => c.caseId)).toEqual(['c000', 'c002', 'c004'])
    expect(targetCalls).toBe(3)
    expect(progress).toEqual(['c000', 'c002', 'c004'])
  })

  it('a run with every case done calls nothing and still returns every result', async () => {
    const { target, calls } = counted((input) => input)
    const done = new Map(echoCases(3).map((c) => [c.id, judged(c.id)]))
    const { results, targetCalls } = await execute({ suite: suiteOf({ cases: echoCases(3), target }), done })
    expect(ids(results)).toEqual(['c000', 'c001', 'c002'])
    expect(targetCalls).toBe(0)
    expect(calls).toHaveLength(0)
  })

  it('refuses a done entry naming a case the suite does not declare, before any call', async () => {
    const { target, calls } = counted((input) => input)
    const done = new Map([
      ['c000', judged('c000')],
      ['ghost', judged('ghost')],
    ])
    const run = execute({ suite: suiteOf({ cases: echoCases(3), target }), done })
    await expect(run).rejects.toBeInstanceOf(InternalError)
    await expect(run).rejects.toThrow(/"ghost"/)
    expect(calls).toHaveLength(0)
  })

  it('refuses a done entry filed under another case id', async () => {
    const { target, calls } = counted((input) => input)
    const done = new Map([['c000', judged('c001')]])
    await expect(execute({ suite: suiteOf({ cases: echoCases(3), target }), done })).rejects.toBeInstanceOf(InternalError)
    expect(calls).toHaveLength(0)
  })
})

describe('execute: only', () => {
  it('runs only the selected cases, in suite order', async () => {
    const { target, calls } = counted((input) => input)
    const { results, targetCalls } = await execute({
      suite: suiteOf({ cases: echoCases(5), target }),
      only: new Set(['c004', 'c001']),
    })
    expect(ids(results)).toEqual(['c001', 'c004'])
    expect(calls.map((c) => c.caseId).sort()).toEqual(['c001', 'c004'])
    expect(targetCalls).toBe(2)
  })

  it('with done, returns the selected done ones and leaves the others out', async () => {
    const { target, calls } = counted((input) => input)
    const done = new Map([
      ['c001', judged('c001')],
      ['c002', judged('c002')],
    ])
    const { results } = await execute({
      suite: suiteOf({ cases: echoCases(4), target }),
      done,
      only: new Set(['c000', 'c001']),
    })
    expect(ids(results)).toEqual(['c000', 'c001'])
    expect(calls.map((c) => c.caseId)).toEqual(['c000'])
  })

  it('passes the suite position to onCase', async () => {
    const { target } = counted((input) => input)
    const seen: [string, number][] = []
    await execute({
      suite: suiteOf({ cases: echoCases(5), target }),
      only: new Set(['c002', 'c004']),
      onCase: (p) => void seen.push([p.result.case_id, p.index]),
    })
    expect(seen).toEqual([
      ['c002', 2],
      ['c004', 4],
    ])
  })
})

describe('execute: signal given already aborted', () => {
  it('rejects with the abort reason and calls nothing', async () => {
    const { target, calls } = counted((input) => input)
    const controller = new AbortController()
    const reason = new Error('cancelled before start')
    controller.abort(reason)
    await expect(execute({ suite: suiteOf({ cases: echoCases(3), target }), signal: controller.signal })).rejects.toBe(reason)
    expect(calls).toHaveLength(0)
  })
})
