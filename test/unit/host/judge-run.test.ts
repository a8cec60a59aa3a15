// judgeRun, the one judgement (ADR 0110), over a real file store in a temp directory: fixed run
// documents and the verdict, exit code, misses and comparison each one gets.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { exitCodeForStatus, judgeRun, type Store } from '../../../src/host/index.js'
import { openStore } from '../../../src/store/open-store.js'
import { keyOf, makeRun, promoteFirst } from '../../helpers/make-run.js'

const BASELINE_AT = '2026-11-29T10:00:00.000001Z'
const RUN_AT = '2026-11-30T10:00:00.000001Z'

/** A run of one case per letter: p passes, f fails, e errors; the suite asks a pass rate of 0.8 and allows a 5-point drop. */
function runOf(verdicts: string, createdAt = RUN_AT): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.results = [...verdicts].map((v, i): CaseResult => {
    const verdict = v === 'p' ? 'pass' : v === 'f' ? 'fail' : 'error'
    return {
      case_id: `c${String(i).padStart(3, '0')}`,
      verdict,
      score: verdict === 'error' ? null : verdict === 'pass' ? 1 : 0,
      passed_samples: verdict === 'pass' ? 1 : 0,
      reason: verdict === 'fail' ? 'the output does not equal the expected value' : null,
      error: verdict === 'error' ? { cause: 'target', message: 'connection reset' } : null,
      samples: [],
    }
  })
  doc.rules = { ...doc.rules, thresholds: { pass_rate: 0.8 }, tolerances: { pass_rate: 0.05 } }
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

let dir: string
let store: Store
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'digline-judge-run-'))
  store = openStore({ store: join(dir, '.digline') })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function file(doc: RunDocument) {
  return store.writeRun(doc)
}

async function promote(doc: RunDocument): Promise<void> {
  await promoteFirst(store, doc, '2026-11-29T12:00:00.000001Z')
}

async function withBaseline(verdicts = 'p'.repeat(20)): Promise<RunDocument> {
  const baseline = runOf(verdicts, BASELINE_AT)
  await file(baseline)
  await promote(baseline)
  return baseline
}

describe('judgeRun', () => {
  test('no baseline, thresholds met: held (exit 0), no comparison, the key and location of the filed run', async () => {
    const run = runOf('p'.repeat(9) + 'f')
    const filed = await file(run)
    const outcome = await judgeRun(store, run, filed)
    expect(outcome).toMatchObject({ suite: 'capitals', tenant: 'acme', key: keyOf(run), status: 'held', misses: [], location: filed.location })
    expect(outcome.comparison).toBeUndefined()
    expect(outcome.notPassed).toEqual([{ case_id: 'c009', verdict: 'fail', score: 0, reason: 'the output does not equal the expected value' }])
    expect(exitCodeForStatus(outcome.status)).toBe(0)
  })

  test('a pass rate under the threshold, no baseline: missed (exit 1), naming the threshold and the actual rate', async () => {
    const run = runOf('ppppppfff')
    const outcome = await judgeRun(store, run, await file(run))
    expect(outcome.status).toBe('missed')
    expect(outcome.misses).toEqual([{ field: 'pass_rate', required: 0.8, actual: 6 / 9 }])
    expect(exitCodeForStatus(outcome.status)).toBe(1)
  })

  test('a run that holds against its baseline: held, with the comparison and no reason', async () => {
    await withBaseline()
    const run = runOf('p'.repeat(20))
    const outcome = await judgeRun(store, run, await file(run))
    expect(outcome.status).toBe('held')
    expect(outcome.comparison).toMatchObject({ status: 'compared', regressed: false, reasons: [], shared: 20 })
  })

  test('10 of 20 cases flipped to fail against the baseline: regressed (exit 1), with the flipped ids, though the threshold is missed too', async () => {
    await withBaseline()
    const run = runOf('pf'.repeat(10))
    const outcome = await judgeRun(store, run, await file(run))
    expect(outcome.status).toBe('regressed')
    expect(exitCodeForStatus(outcome.status)).toBe(1)
    expect(outcome.misses.map((m) => m.field)).toEqual(['pass_rate'])
    const comparison = outcome.comparison!
    expect(comparison.status).toBe('compared')
    if (comparison.status !== 'compared') return
    expect(comparison.regressed).toBe(true)
    expect(comparison.reasons[0]).toContain('pass rate −50.0 points over 20 shared cases')
    expect(comparison.flipped.pass_to_fail).toEqual(['c001', 'c003', 'c005', 'c007', 'c009', 'c011', 'c013', 'c015', 'c017', 'c019'])
    expect(comparison.flaky.cases).toEqual([])
  })

  test('an errored case: not judged (exit 2), before the regression and the threshold it also shows', async () => {
    await withBaseline()
    const run = runOf('pe' + 'pf'.repeat(9))
    const outcome = await judgeRun(store, run, await file(run))
    expect(outcome.status).toBe('errored')
    expect(exitCodeForStatus(outcome.status)).toBe(2)
    expect(outcome.notPassed[0]).toEqual({ case_id: 'c001', verdict: 'error', score: null, reason: 'connection reset' })
    expect(outcome.comparison?.regressed).toBe(true)
  })

  test('a filtered run (not filed) is judged by its thresholds alone, never against the baseline', async () => {
    await withBaseline()
    const run = runOf('pfpfpfpfpfpf' + 'p'.repeat(8))
    const outcome = await judgeRun(store, run, undefined)
    expect(outcome).toMatchObject({ status: 'missed', key: '(not written)', location: undefined })
    expect(outcome.comparison).toBeUndefined()
  })

  test('a baseline that cannot be read: baseline-unreadable (exit 2), with the refusal, not thrown', async () => {
    await withBaseline()
    const { writeFileSync, readdirSync } = await import('node:fs')
    const baselines = join(dir, '.digline', 'acme', 'baselines')
    for (const name of readdirSync(baselines)) writeFileSync(join(baselines, name), '{ not json')
    const run = runOf('p'.repeat(20))
    const outcome = await judgeRun(store, run, await file(run))
    expect(outcome.status).toBe('baseline-unreadable')
    expect(exitCodeForStatus(outcome.status)).toBe(2)
    expect(outcome.comparison).toMatchObject({ status: 'unreadable', problem: { name: 'UnreadableBaselineError' } })
  })
})
