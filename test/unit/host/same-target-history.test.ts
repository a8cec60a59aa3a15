// Issue 23 item 12: flaky cases and `digline plan` read earlier runs of the same rules; config_hash
// leaves the target out, so a run of another target version (declared config or reported model)
// must not count, or a deliberately worse target makes steady cases "flaky".
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { compareWithBaseline } from '../../../src/host/judge/compare.js'
import { planSuite } from '../../../src/host/plan/plan.js'
import { openStore } from '../../../src/store/open-store.js'
import { makeRun, promoteFirst } from '../../helpers/make-run.js'

const at = (day: number) => `2026-01-${String(day).padStart(2, '0')}T12:00:00.000001Z`

function run(verdicts: string, day: number, target: { config?: Record<string, unknown>; model?: string } = {}): RunDocument {
  const doc = makeRun({ results: 0, createdAt: at(day) })
  doc.target_config = target.config ?? { version: 1 }
  doc.observed = { ...doc.observed, target_model: target.model ?? 'm-1' }
  doc.rules = { samples: 1, min_agreement: 1, thresholds: {}, tolerances: {} }
  doc.results = [...verdicts].map((v, i): CaseResult => ({
    case_id: `c${i}`,
    verdict: v === 'p' ? 'pass' : 'fail',
    score: v === 'p' ? 1 : 0,
    passed_samples: v === 'p' ? 1 : 0,
    reason: null,
    error: null,
    samples: [{ pass: v === 'p', score: v === 'p' ? 1 : 0, scorers: [] }],
  }))
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

test('runs of another target config or another reported model are not the history of flaky cases, nor the evidence of plan', async () => {
  const store = openStore({ store: join(mkdtempSync(join(tmpdir(), 'digline-same-target-')), '.digline') })
  const base = run('pppp', 1)
  await store.writeRun(base)
  await promoteFirst(store, base, at(1))
  // A deliberately worse target version (same rules, so the same config_hash): every case failed.
  await store.writeRun(run('ffff', 2, { config: { version: 2 } }))
  await store.writeRun(run('ffff', 3, { model: 'm-2' }))
  // One run of the same target, in which c0 failed: c0 alone is flaky.
  await store.writeRun(run('fppp', 4))
  const c = await compareWithBaseline(store, run('pppp', 5))
  expect(c?.status).toBe('compared')
  if (c?.status !== 'compared') return
  expect(c.flaky.recent_runs).toBe(1)
  expect(c.flaky.cases).toEqual(['c0'])
  const plan = await planSuite(store, base.tenant, base.suite, { detect: 0.2, power: 0.8, seed: 1, repetitions: 50, maxCases: 20, samples: [1] })
  expect(plan.evidence.runs).toBe(2)
})

test('plan --detect no larger than the tolerance is refused with the reason: such a drop is never a regression (issue 23 item 18)', async () => {
  const store = openStore({ store: join(mkdtempSync(join(tmpdir(), 'digline-plan-tolerance-')), '.digline') })
  const base = run('ppppfppppf', 1)
  base.rules = { ...base.rules, tolerances: { pass_rate: 0.05 } }
  await store.writeRun(base)
  await promoteFirst(store, base, at(1))
  const refused = await planSuite(store, base.tenant, base.suite, { detect: 0.05, power: 0.8, seed: 1, repetitions: 50 }).catch((e: unknown) => e)
  expect(refused).toMatchObject({ name: 'UsageError' })
  expect(String((refused as Error).message)).toContain('a drop of 5.0 points is never a regression')
  expect(String((refused as { next?: string }).next ?? (refused as Error).message)).toContain('--detect 0.1')
})
