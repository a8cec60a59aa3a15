// Issue 26 item 6: tool calls and steps per case are amounts the comparison gates like cost (the
// paired log-ratio), and the comparison names the cases whose trajectory changed — from baselines,
// which keep tool names though they hold no responses. Through compareRuns and its formatters.
import { describe, expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { formatComparisonText, formatVerdictMarkdown } from '../../../src/host/judge/format-comparison.js'
import { outcomeOf } from '../../../src/host/judge/suite-outcome.js'
import { judgeThresholds } from '../../../src/driver/thresholds.js'
import type { AnswerStep } from '../../../src/suite/steps.js'
import type { RuleTolerances } from '../../../src/suite/types.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

const model: AnswerStep = { type: 'model' }
const tools = (...names: string[]): AnswerStep[] => [...names.flatMap((name): AnswerStep[] => [model, { type: 'tool', name, ok: true }]), model]

function run(trajectories: (AnswerStep[] | undefined)[], options: { createdAt?: string; tolerances?: RuleTolerances } = {}): RunDocument {
  const doc = makeRun({ results: 0, createdAt: options.createdAt ?? '2026-11-29T10:00:00.000001Z' })
  doc.rules = { samples: 1, min_agreement: 1, thresholds: {}, tolerances: options.tolerances ?? {} }
  doc.results = trajectories.map((steps, i): CaseResult => ({
    case_id: `c${String(i).padStart(3, '0')}`,
    verdict: 'pass',
    score: 1,
    passed_samples: 1,
    reason: null,
    error: null,
    samples: [{ pass: true, score: 1, scorers: [{ name: 'tool_calls', pass: true, score: 1, reason: null }], ...(steps === undefined ? {} : { steps }) }],
  }))
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

const asBaseline = (doc: RunDocument) => baselineOf(doc, keyOf(doc), '2026-11-29T12:00:00.000001Z')
const later = '2026-11-30T10:00:00.000001Z'
const plans = [['search'], ['search', 'fetch'], ['lookup', 'weather'], ['search', 'fetch', 'answer'], ['a'], ['a', 'b'], ['x', 'y', 'z'], ['q']]

describe('tool calls and steps per case', () => {
  test('twice the tool calls on every case regresses beyond a tolerance of 20%; the text names the gate and the changed trajectories', () => {
    const tolerances = { tool_calls_per_case: 0.2, steps_per_case: 0.5 }
    const baseline = asBaseline(
      run(
        plans.map((p) => tools(...p)),
        { tolerances },
      ),
    )
    const doubled = run(
      plans.map((p) => tools(...p, ...p)),
      { createdAt: later, tolerances },
    )
    const c = compareRuns(baseline, doubled)
    const byName = Object.fromEntries(c.gates.map((g) => [g.gate, g]))
    expect(byName.tool_calls_per_case).toMatchObject({ n: 8, regressed: true, relative: { mean: expect.closeTo(1, 6) } })
    expect(byName.steps_per_case!.relative!.mean).toBeGreaterThan(0.5)
    expect(c.reasons.some((r) => r.startsWith('tool calls per case +100.0% per case'))).toBe(true)
    expect(c.trajectories_changed).toHaveLength(8)
    const text = formatComparisonText(c).join('\n')
    expect(text).toMatch(/tool calls per case\s+\S*\+100\.0% per case/)
    expect(text).toContain('trajectory changed (8): c000, c001')
    const md = formatVerdictMarkdown(outcomeOf({ document: doubled, stored: undefined, thresholds: judgeThresholds(doubled.aggregates, doubled.rules) }, c))
    expect(md).toContain('**Trajectory changed (8)**: `c000`')
  })

  test('the same tools in another order change the trajectory but not the amounts; a run without steps has neither gate', () => {
    const baseline = asBaseline(run(plans.map((p) => tools(...p))))
    const swapped = run(
      plans.map((p, i) => tools(...(i === 1 ? [...p].reverse() : p))),
      { createdAt: later },
    )
    const c = compareRuns(baseline, swapped)
    expect(c.trajectories_changed).toEqual(['c001'])
    expect(c.gates.find((g) => g.gate === 'tool_calls_per_case')).toMatchObject({ regressed: false, tolerance: null, relative: { mean: 0 } })
    const plain = compareRuns(
      asBaseline(run(plans.map(() => undefined))),
      run(
        plans.map(() => undefined),
        { createdAt: later },
      ),
    )
    expect(plain.gates.map((g) => g.gate)).toEqual(['cost_per_case', 'tokens_per_case', 'latency_per_case'])
    expect(plain).not.toHaveProperty('trajectories_changed')
  })
})
