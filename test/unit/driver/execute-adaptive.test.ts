// Adaptive samples through the real driver (ADR 0360): each case takes min samples, then more only
// while its verdict at max could still change; the calls are counted, the record says why the case
// stopped, the verdict is the one max fixed samples give on the same answers, and the import check
// (written independently of the loop) accepts exactly what the driver writes.
import { describe, expect, it } from 'vitest'
import { aggregate } from '../../../src/driver/aggregate.js'
import { BudgetStop } from '../../../src/driver/budget.js'
import { formatAggregates } from '../../../src/host/judge/format-outcome.js'
import { execute } from '../../../src/driver/execute.js'
import { caseResultSchema, type RunDocument } from '../../../src/document/schema.js'
import { serializeCase } from '../../../src/document/serialize.js'
import { assertConsistentRun } from '../../../src/host/lifecycle/run-consistency.js'
import { InconsistentRunError } from '../../../src/host/lifecycle/errors.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { resolveSuite, suiteIdentity } from '../../../src/suite/resolve-suite.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'
import { makeRun } from '../../helpers/make-run.js'
import { counted, suiteOf } from './fixture.js'

/** Per case, the answer of each sample: R is right (the expected value), W wrong. */
const PATTERNS: Record<string, string> = { steady: 'RRRRR', broken: 'WWWWW', flaky: 'RWRWR', late: 'WRWWR', close: 'RRWWR' }
const cases = Object.keys(PATTERNS).map((id) => ({ id, input: id, expected: 'right' }))
const target = () => counted((_input, ctx) => (PATTERNS[ctx.caseId]![ctx.sample] === 'R' ? 'right' : 'wrong'))

describe('execute with samples { min, max }', () => {
  it('takes min samples, then more only while the verdict at max is open, and says why it stopped', async () => {
    const { target: ask, calls } = target()
    const suite = suiteOf({ cases, target: ask, samples: { min: 2, max: 5 }, minAgreement: 3 / 5 })
    const { results, targetCalls } = await execute({ suite })
    const taken = (id: string) => calls.filter((c) => c.caseId === id).map((c) => c.sample)
    expect(taken('steady')).toEqual([0, 1, 2])
    expect(taken('broken')).toEqual([0, 1, 2])
    expect(taken('flaky')).toEqual([0, 1, 2, 3, 4])
    expect(taken('late')).toEqual([0, 1, 2, 3])
    expect(taken('close')).toEqual([0, 1, 2, 3, 4])
    expect(targetCalls).toBe(3 + 3 + 5 + 4 + 5)
    const byId = Object.fromEntries(results.map((r) => [r.case_id, r]))
    expect(Object.fromEntries(results.map((r) => [r.case_id, [r.verdict, r.samples.length, r.sampling_stopped]]))).toEqual({
      steady: ['pass', 3, 'settled'],
      broken: ['fail', 3, 'settled'],
      flaky: ['pass', 5, 'max'],
      late: ['fail', 4, 'settled'],
      close: ['pass', 5, 'max'],
    })
    expect(byId.late!.reason).toMatch(/^1\/4 samples passed, 3 of 5 needed; sample 0, exact: /)
    // The field round-trips through the schema and sits right after the samples.
    const line = serializeCase(byId.late!)
    expect(caseResultSchema.parse(JSON.parse(line))).toEqual(byId.late)
    expect(Object.keys(JSON.parse(line))).toEqual(['case_id', 'verdict', 'score', 'passed_samples', 'reason', 'error', 'samples', 'sampling_stopped'])
    expect(aggregate(results, suite.rules)).toMatchObject({ samples_per_case: 5, samples_taken: 20 })
    expect(formatAggregates(aggregate(results, suite.rules))).toMatch(/^5 cases × up to 5 samples \(20 taken\) · /)
  })

  it('reserves max calls when a case starts, so a calls budget is never passed', async () => {
    // Each steady case takes 3 of its 5: reserved 5, settled 3. The fourth would need 9 + 5 > 12.
    const steady = Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, input: i, expected: 'right' }))
    const { target: ask, calls } = counted(() => 'right')
    const suite = suiteOf({ cases: steady, target: ask, samples: { min: 2, max: 5 }, minAgreement: 3 / 5 })
    const error: unknown = await execute({ suite, budget: { calls: 12 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BudgetStop)
    expect((error as BudgetStop).spent.calls).toBe(9)
    expect((error as BudgetStop).unjudged).toBe(3)
    expect(calls).toHaveLength(9)
  })

  it('gives every case the verdict of max fixed samples on the same answers', async () => {
    // 40 cases whose samples follow a fixed pseudo-random pattern of passes.
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, input: i, expected: 'right' }))
    const answer = (_: unknown, ctx: { caseId: string; sample: number }) => ((Number(ctx.caseId.slice(1)) * 7919 + ctx.sample * 104729) % 10 < 6 ? 'right' : 'wrong')
    for (const minAgreement of [1, 3 / 5, 1 / 5]) {
      const fixed = await execute({ suite: suiteOf({ cases: many, target: counted(answer).target, samples: 5, minAgreement }) })
      const adaptive = counted(answer)
      const run = await execute({ suite: suiteOf({ cases: many, target: adaptive.target, samples: { min: 1, max: 5 }, minAgreement }) })
      expect(run.results.map((r) => r.verdict)).toEqual(fixed.results.map((r) => r.verdict))
      expect(run.targetCalls).toBeLessThan(fixed.targetCalls)
    }
  })
})

describe('the import check holds a document to the stopping rule', () => {
  async function adaptiveDocument(): Promise<RunDocument> {
    const suite = suiteOf({ cases, target: target().target, samples: { min: 2, max: 5 }, minAgreement: 3 / 5 })
    const { results } = await execute({ suite })
    const doc = structuredClone(makeRun({ results: 0 }))
    doc.judge_config = { scorers: [{ name: 'exact', config: {}, pass_at: 0.5 }] }
    doc.rules = suite.rules
    doc.results = results
    doc.aggregates = aggregate(results, suite.rules)
    return doc
  }

  it('accepts what the driver wrote', async () => {
    const doc = await adaptiveDocument()
    expect(() => assertConsistentRun(doc, 'run.json')).not.toThrow()
  })

  it('refuses a case cut short, one sampled past its stop, and a wrong stop reason', async () => {
    const short = await adaptiveDocument()
    short.results[2]!.samples.pop() // flaky: 4 of its 5 samples leave the verdict open
    short.results[2]!.sampling_stopped = 'settled'
    expect(() => assertConsistentRun(short, 'run.json')).toThrow(InconsistentRunError)
    expect(() => assertConsistentRun(short, 'run.json')).toThrow(/results\[2\]\.samples: it says 4 where its own results give \(absent\)/)
    const long = await adaptiveDocument()
    long.results[0]!.samples.push(long.results[0]!.samples[0]!) // steady was settled at 3
    expect(() => assertConsistentRun(long, 'run.json')).toThrow(/results\[0\]\.samples: it says 4 where its own results give 3/)
    const reason = await adaptiveDocument()
    reason.results[0]!.sampling_stopped = 'max'
    expect(() => assertConsistentRun(reason, 'run.json')).toThrow(/results\[0\]\.sampling_stopped: it says "max" where its own results give "settled"/)
  })
})

describe('samples { min, max } as a rule', () => {
  const definition = (extra: Partial<SuiteDefinition>): SuiteDefinition => ({
    name: 'capitals',
    cases: [{ id: 'a', input: 1 }],
    target: (x: unknown) => x,
    scorers: [() => true],
    ...extra,
  })
  const hash = (extra: Partial<SuiteDefinition>) => suiteIdentity(resolveSuite(definition(extra))).configHash

  it('is in config_hash; { min: n, max: n } is n samples with its hash', () => {
    expect(hash({ samples: { min: 3, max: 3 } })).toBe(hash({ samples: 3 }))
    const hashes = [hash({ samples: 5 }), hash({ samples: { min: 2, max: 5 } }), hash({ samples: { min: 3, max: 5 } }), hash({ samples: { min: 2, max: 6 } })]
    expect(new Set(hashes).size).toBe(4)
    expect(resolveSuite(definition({ samples: { min: 2, max: 5 } })).rules).toMatchObject({ samples: 5, min_samples: 2 })
    expect(resolveSuite(definition({ samples: 5 })).rules).not.toHaveProperty('min_samples')
  })

  it('refuses min above max; gateOn samples goes with adaptive samples (ADR 0417)', () => {
    expect(() => resolveSuite(definition({ samples: { min: 4, max: 2 } }))).toThrow(InvalidSuiteError)
    expect(() => resolveSuite(definition({ samples: { min: 4, max: 2 } }))).toThrow(/min must not exceed max/)
    expect(() => resolveSuite(definition({ samples: { min: 0, max: 2 } }))).toThrow(InvalidSuiteError)
    expect(resolveSuite(definition({ samples: { min: 2, max: 4 }, gateOn: 'samples' })).rules).toMatchObject({ samples: 4, min_samples: 2, gate_on: 'samples' })
    expect(() => resolveSuite(definition({ samples: { min: 4, max: 4 }, gateOn: 'samples' }))).not.toThrow()
  })
})
