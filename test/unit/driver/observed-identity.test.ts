import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { ObservedIdentity, ObservedIdentityTooLargeError } from '../../../src/driver/observed-identity.js'
import { OBSERVED_LIMIT_BYTES, observedBytes } from '../../../src/document/observed-limit.js'
import { ObservedIdentityChangedError } from '../../../src/driver/errors.js'
import type { ScorerObject } from '../../../src/suite/types.js'
import { counted, suiteOf } from './fixture.js'

const cases = ['a', 'b', 'c'].map((id) => ({ id, input: id, expected: id }))

/** A target object reporting the model named for each case (and sample). */
function reporting(models: Record<string, string | string[]>) {
  const { target, calls } = counted((input, ctx) => {
    const m = models[ctx.caseId]
    return { output: input, model: Array.isArray(m) ? m[ctx.sample] : m }
  })
  return { target: { config: { model: 'alias' }, ask: target }, calls }
}

describe('ObservedIdentity', () => {
  it('pins the first model and refuses a different one, naming both', () => {
    const identity = new ObservedIdentity()
    identity.seeTarget(undefined)
    identity.seeTarget('m-1')
    identity.seeTarget('m-1')
    expect(() => identity.seeTarget('m-2')).toThrow(ObservedIdentityChangedError)
    expect(() => identity.seeTarget('m-2')).toThrow(/first "m-1", now "m-2"/)
    expect(identity.snapshot()).toEqual({ target_model: 'm-1', judge_models: {} })
  })

  it('keeps judges apart by scorer name and lists them in name order', () => {
    const identity = new ObservedIdentity()
    identity.seeJudge('zeta', 'j-1')
    identity.seeJudge('alpha', 'j-2')
    expect(() => identity.seeJudge('zeta', 'j-2')).toThrow(/judge "zeta"'s model changed within the run: first "j-1", now "j-2"/)
    expect(Object.keys(identity.snapshot().judge_models)).toEqual(['alpha', 'zeta'])
    expect(identity.snapshot().target_model).toBeNull()
  })

  it('resumes from a seed, and the snapshot cannot be changed from outside', () => {
    const seed = { target_model: 't-1', judge_models: { judge: 'j-1' } }
    const identity = ObservedIdentity.resume(seed)
    expect(() => identity.seeTarget('t-2')).toThrow(ObservedIdentityChangedError)
    expect(() => identity.seeJudge('judge', 'j-2')).toThrow(ObservedIdentityChangedError)
    const snap = identity.snapshot()
    expect(() => {
      snap.judge_models.other = 'x'
    }).toThrow(TypeError)
    expect(() => {
      snap.target_model = 'x'
    }).toThrow(TypeError)
    expect(identity.snapshot()).toEqual(seed)
  })

  it('hands out one snapshot until an identity is pinned, then a new one; the earlier one stays as it was', () => {
    const identity = new ObservedIdentity()
    const first = identity.snapshot()
    expect(identity.snapshot()).toBe(first)
    identity.seeTarget(undefined)
    identity.seeJudge('judge', undefined)
    expect(identity.snapshot()).toBe(first)
    identity.seeTarget('t-1')
    const second = identity.snapshot()
    expect(second).not.toBe(first)
    expect(first).toEqual({ target_model: null, judge_models: {} })
    expect(second).toEqual({ target_model: 't-1', judge_models: {} })
    identity.seeTarget('t-1')
    expect(identity.snapshot()).toBe(second)
    identity.seeJudge('judge', 'j-1')
    expect(identity.snapshot()).toEqual({ target_model: 't-1', judge_models: { judge: 'j-1' } })
    expect(second).toEqual({ target_model: 't-1', judge_models: {} })
  })
})

describe('execute: observed identity', () => {
  it('errors the case where the target model changes (cause target), keeps the pinned one for later cases', async () => {
    const { target } = reporting({ a: 'geo-2026-01', b: 'geo-2026-02', c: 'geo-2026-01' })
    const { results, observed } = await execute({ suite: suiteOf({ cases, target }) })
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'error', 'pass'])
    expect(results[1]!.error!.cause).toBe('target')
    expect(results[1]!.error!.message).toContain('ObservedIdentityChangedError')
    expect(results[1]!.error!.message).toContain('model changed within the run: first "geo-2026-01", now "geo-2026-02"')
    expect(observed).toEqual({ target_model: 'geo-2026-01', judge_models: {} })
  })

  it('a change between samples of one case errors that case and asks no further sample', async () => {
    const { target, calls } = reporting({ a: ['m', 'm', 'm'], b: ['m', 'n', 'm'], c: ['m', 'm', 'm'] })
    const { results, targetCalls } = await execute({ suite: suiteOf({ cases, target, samples: 3 }) })
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'error', 'pass'])
    expect(results[1]!.error!.message).toMatch(/^sample 1 of 3: ObservedIdentityChangedError: /)
    expect(calls.filter((c) => c.caseId === 'b')).toHaveLength(2)
    expect(targetCalls).toBe(8)
  })

  it('a seeded identity errors the first case of a resumed leg whose alias rolled', async () => {
    const { target } = reporting({ a: 'new', b: 'new', c: 'new' })
    const { results, observed } = await execute({
      suite: suiteOf({ cases, target }),
      observedSeed: { target_model: 'old', judge_models: {} },
    })
    expect(results.map((r) => r.verdict)).toEqual(['error', 'error', 'error'])
    expect(results[0]!.error!.message).toContain('first "old", now "new"')
    expect(observed.target_model).toBe('old')
  })

  it('a target that reports no model leaves the identity null', async () => {
    const { target } = counted((input) => input)
    const { observed } = await execute({ suite: suiteOf({ cases, target }) })
    expect(observed).toEqual({ target_model: null, judge_models: {} })
  })

  function judge(models: Record<string, string>): ScorerObject {
    return { name: 'judge', config: { rubric: 'same' }, score: ({ caseId }) => ({ pass: true, score: 1, model: models[caseId] }) }
  }

  it('errors the case where a judge model changes (cause scorer), keyed by scorer name', async () => {
    const { target } = counted((input) => input)
    const { results, observed } = await execute({
      suite: suiteOf({ cases, target, scorers: [judge({ a: 'judge-1', b: 'judge-2', c: 'judge-1' })] }),
    })
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'error', 'pass'])
    expect(results[1]!.error!.cause).toBe('scorer')
    expect(results[1]!.error!.message).toContain('ObservedIdentityChangedError')
    expect(results[1]!.error!.message).toContain('first "judge-1", now "judge-2"')
    expect(observed).toEqual({ target_model: null, judge_models: { judge: 'judge-1' } })
  })

  it('a seeded judge identity errors a judge that now reports another model', async () => {
    const { target } = counted((input) => input)
    const { results } = await execute({
      suite: suiteOf({ cases, target, scorers: [judge({ a: 'judge-2', b: 'judge-1', c: 'judge-1' })] }),
      observedSeed: { target_model: null, judge_models: { judge: 'judge-1' } },
    })
    expect(results.map((r) => r.verdict)).toEqual(['error', 'pass', 'pass'])
    expect(results[0]!.error!.cause).toBe('scorer')
  })

  it('hands onCase the identity as of that case', async () => {
    const { target } = reporting({ a: 'm-1', b: 'm-1', c: 'm-1' })
    const seen: (string | null)[] = []
    await execute({ suite: suiteOf({ cases, target }), onCase: (p) => void seen.push(p.observed.target_model) })
    expect(seen).toEqual(['m-1', 'm-1', 'm-1'])
  })
})

describe('an observed id too large for the header (issue 23 item 9)', () => {
  it('is never pinned: its case errors, the size kept matches the snapshot, and a later id that fits is pinned', () => {
    const identity = new ObservedIdentity()
    expect(() => identity.seeTarget('x'.repeat(OBSERVED_LIMIT_BYTES))).toThrow(ObservedIdentityTooLargeError)
    expect(identity.snapshot().target_model).toBeNull()
    identity.seeJudge('a', 'j-1')
    identity.seeJudge('b', 'j-2')
    identity.seeTarget('t-1')
    const used = observedBytes(identity.snapshot())
    // exactly the room left: one byte more is refused, the exact fit is kept
    const room = OBSERVED_LIMIT_BYTES - used - (JSON.stringify('c').length + 1 + 2 + 1)
    expect(() => identity.seeJudge('c', 'y'.repeat(room + 1))).toThrow(/judge "c"'s model id is .* bytes long/)
    identity.seeJudge('c', 'y'.repeat(room))
    expect(observedBytes(identity.snapshot())).toBe(OBSERVED_LIMIT_BYTES)
  })

  it('execute errors the case (target, or scorer for a judge) and the run goes on', async () => {
    const huge = 'm'.repeat(OBSERVED_LIMIT_BYTES)
    const { target, calls } = reporting({ b: huge })
    const judge: ScorerObject = { name: 'judge', score: ({ caseId }) => ({ pass: true, model: caseId === 'a' ? huge : 'j-1' }) }
    const { results, observed } = await execute({ suite: suiteOf({ cases, target, scorers: [judge], concurrency: 1 }) })
    expect(calls).toHaveLength(3)
    expect(results.map((r) => r.verdict)).toEqual(['error', 'error', 'pass'])
    expect(results[0]!.error).toMatchObject({ cause: 'scorer', message: expect.stringContaining('ObservedIdentityTooLargeError: judge "judge"\'s model id') })
    expect(results[1]!.error).toMatchObject({ cause: 'target', message: expect.stringContaining("ObservedIdentityTooLargeError: the target's model id") })
    expect(observed).toEqual({ target_model: null, judge_models: { judge: 'j-1' } })
  })
})
