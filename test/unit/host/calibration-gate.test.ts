// The calibration gate (ADR 0352) in judgeRun over a real file store: a run that fails only through a
// judge below the suite's calibration is not judged (exit 2, naming the labels missing); one that
// fails on its other scorers too, or through a calibrated judge, is judged (exit 1); a run that holds
// is never held back by an uncalibrated judge. The suite option is checked and refused by name, and
// enters config_hash only when set.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { aggregate } from '../../../src/driver/aggregate.js'
import { exitCodeForStatus, formatLaunchMarkdown, formatOutcome, judgeRun, type JudgeLabel, type Store } from '../../../src/host/index.js'
import { openStore } from '../../../src/store/open-store.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { configHash } from '../../../src/suite/hashing.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { answerDigestOf } from '../../../src/document/answer-digest.js'
import { explainRun } from '../../../src/host/judge/explain-run.js'
import { reportData } from '../../../src/host/report-data/report-data.js'
import { newReview } from '../../../src/store/review.js'
import { keyOf, makeRun, promoteFirst } from '../../helpers/make-run.js'

const BASELINE_AT = '2026-11-29T10:00:00.000001Z'
const RUN_AT = '2026-11-30T10:00:00.000001Z'
const JUDGE_CONFIG = { model: { provider: 'openai', model: 'judge-v1' }, rubric: 'is it right?' }
const CALIBRATION = { min_labels: 30, min_agreement: 0.6 }

/** One case per pair of letters: the exact scorer's and the judge's verdicts (p or f) of its one sample. */
/** `calibration` null: the suite sets none. */
function runOf(cases: readonly string[], createdAt = RUN_AT, calibration: typeof CALIBRATION | null = CALIBRATION, thresholds = {}): RunDocument {
  const doc = makeRun({ results: 0, createdAt })
  doc.judge_config = {
    scorers: [
      { name: 'exact', config: {}, pass_at: 1 },
      { name: 'judge', config: JUDGE_CONFIG, pass_at: 0.75 },
    ],
  }
  doc.results = cases.map((c, i): CaseResult => {
    const exact = c[0] === 'p'
    const judge = c[1] === 'p'
    const pass = exact && judge
    const score = ((exact ? 1 : 0) + (judge ? 1 : 0)) / 2
    return {
      case_id: `c${String(i).padStart(3, '0')}`,
      verdict: pass ? 'pass' : 'fail',
      score,
      passed_samples: pass ? 1 : 0,
      reason: pass ? null : `0/1 samples passed; sample 0, ${exact ? 'judge' : 'exact'}: did not pass`,
      error: null,
      samples: [
        {
          pass,
          score,
          scorers: [
            { name: 'exact', pass: exact, score: exact ? 1 : 0, reason: null },
            { name: 'judge', pass: judge, score: judge ? 1 : 0, reason: null },
          ],
        },
      ],
    }
  })
  doc.rules = { ...doc.rules, thresholds, tolerances: { pass_rate: 0.05 }, ...(calibration === null ? {} : { calibration }) }
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

const all = (n: number, pair: string): string[] => Array.from({ length: n }, () => pair)
/** 40 cases: 10 the judge alone fails. */
const JUDGE_DROP = [...all(30, 'pp'), ...all(10, 'pf')]
/** 40 cases: 10 the exact scorer alone fails. */
const EXACT_DROP = [...all(30, 'pp'), ...all(10, 'fp')]

/** `n` labels of the judge with `agree` of them agreeing, half of them on answers it failed. */
function labels(n: number, disagree = 0): JudgeLabel[] {
  return Array.from({ length: n }, (_, i) => {
    const judged = i % 2 === 0
    return { judge: 'judge', unit: `r/c${i}`, judged, human: i < disagree ? !judged : judged }
  })
}

let dir: string
let store: Store
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'digline-calibration-'))
  store = openStore({ store: join(dir, '.digline') })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function judged(cases: readonly string[], given: JudgeLabel[], calibration: typeof CALIBRATION | null = CALIBRATION, withBaseline = true, thresholds = {}) {
  if (withBaseline) {
    const baseline = runOf(all(40, 'pp'), BASELINE_AT, calibration, thresholds)
    await store.writeRun(baseline)
    await promoteFirst(store, baseline, '2026-11-29T12:00:00.000001Z')
  }
  const run = runOf(cases, RUN_AT, calibration, thresholds)
  const filed = await store.writeRun(run)
  return judgeRun(store, run, filed, undefined, given)
}

describe('a regression that rests on an uncalibrated judge', () => {
  test('with no label it is not judged: exit 2, and the text names the 30 labels missing and where to make them', async () => {
    const outcome = await judged(JUDGE_DROP, [])
    expect(outcome.status).toBe('uncalibrated')
    expect(exitCodeForStatus(outcome.status)).toBe(2)
    expect(outcome.uncalibrated).toEqual(['judge'])
    expect(outcome.agreement).toMatchObject([{ judge: 'judge', labels: 0, calibrated: false, missing_labels: 30 }])
    const text = formatOutcome(outcome)
    expect(text).toContain('not judged the judge is not calibrated')
    expect(text).toContain('0 of the 30 labels it needs (30 missing)')
    expect(text).toContain('digline view --suite capitals')
    expect(formatLaunchMarkdown([outcome], 2)).toContain('**Not judged:** the judge is not calibrated')
  })

  test('with 12 labels: 18 missing, still not judged', async () => {
    const outcome = await judged(JUDGE_DROP, labels(12))
    expect(outcome.status).toBe('uncalibrated')
    expect(outcome.agreement![0]!.missing_labels).toBe(18)
    expect(formatOutcome(outcome)).toContain('12 of the 30 labels it needs (18 missing)')
  })

  test('with 30 labels but a kappa below 0.6 (8 of 30 disagree: kappa 0.47) it is not judged, naming the kappa', async () => {
    const outcome = await judged(JUDGE_DROP, labels(30, 8))
    expect(outcome.agreement![0]!.kappa).toBeCloseTo(1 - (2 * 8) / 30, 10)
    expect(outcome.status).toBe('uncalibrated')
    expect(formatOutcome(outcome)).toContain('kappa 0.47 with 30 labels, below the 0.6 it needs')
  })

  test('with 30 labels and a kappa of 0.87 (2 of 30 disagree) the judge gates: regressed, exit 1', async () => {
    const outcome = await judged(JUDGE_DROP, labels(30, 2))
    expect(outcome.status).toBe('regressed')
    expect(exitCodeForStatus(outcome.status)).toBe(1)
    expect(outcome.agreement).toMatchObject([{ judge: 'judge', labels: 30, calibrated: true, missing_labels: 0 }])
    expect(formatOutcome(outcome)).toMatch(/judge judge: kappa 0\.87, 95% interval \[0\.\d\d, 1\.00\], 30 labels of 30 answers, 93% agree: calibrated/)
  })

  test('labels whose verdicts are all one (every answer passed) measure no agreement, so they do not calibrate', async () => {
    const outcome = await judged(
      JUDGE_DROP,
      Array.from({ length: 30 }, (_, i) => ({ judge: 'judge', unit: `r/c${i}`, judged: true, human: true })),
    )
    expect(outcome.status).toBe('uncalibrated')
    expect(outcome.agreement![0]!.why).toContain('all one verdict')
  })
})

describe('what an uncalibrated judge does not do', () => {
  test('a regression on the exact scorer stands without the judge: regressed, exit 1', async () => {
    const outcome = await judged(EXACT_DROP, [])
    expect(outcome.status).toBe('regressed')
    expect(outcome.uncalibrated).toBeUndefined()
  })

  test('a run that holds is held (exit 0), its judge shown as not calibrated', async () => {
    const outcome = await judged(all(40, 'pp'), [])
    expect(outcome.status).toBe('held')
    expect(formatOutcome(outcome)).toContain('judge judge: no human label yet: not calibrated')
  })

  test('without calibration the judge gates as before, and its agreement is still shown', async () => {
    const outcome = await judged(JUDGE_DROP, labels(10, 1), null)
    expect(outcome.status).toBe('regressed')
    expect(outcome.agreement).toMatchObject([{ judge: 'judge', labels: 10, calibrated: null }])
    expect(formatOutcome(outcome)).toMatch(/judge judge: kappa 0\.80, 95% interval \[[−-]?\d\.\d\d, \d\.\d\d\], 10 labels of 10 answers, 90% agree\n/)
  })
})

describe('a threshold missed', () => {
  test('only through the uncalibrated judge: not judged; through the exact scorer too: missed', async () => {
    const byJudge = await judged(JUDGE_DROP, [], CALIBRATION, false, { pass_rate: 0.9 })
    expect(byJudge.status).toBe('uncalibrated')
    rmSync(dir, { recursive: true, force: true })
    store = openStore({ store: join(mkdtempSync(join(tmpdir(), 'digline-calibration-')), '.digline') })
    const byExact = await judged(EXACT_DROP, [], CALIBRATION, false, { pass_rate: 0.9 })
    expect(byExact.status).toBe('missed')
  })
})

describe('the calibration option', () => {
  const base = { name: 's', cases: [{ id: 'a', input: 1 }], target: () => 1, scorers: [{ name: 'judge', config: { model: 'judge-v1' }, score: () => true }] }

  test('becomes rules.calibration and moves config_hash; a suite without it keeps its hash', () => {
    const plain = resolveSuite(base)
    const calibrated = resolveSuite({ ...base, calibration: { minLabels: 30, minAgreement: 0.6 } })
    expect(calibrated.rules.calibration).toEqual({ min_labels: 30, min_agreement: 0.6 })
    expect(plain.rules).not.toHaveProperty('calibration')
    expect(configHash(calibrated.rules, calibrated.scorers)).not.toBe(configHash(plain.rules, plain.scorers))
    const { calibration: _, ...withoutKey } = calibrated.rules
    expect(configHash({ ...withoutKey, calibration: undefined }, plain.scorers)).toBe(configHash(plain.rules, plain.scorers))
  })

  test.each([
    [{ minLabels: 0, minAgreement: 0.6 }, 'calibration.minLabels'],
    [{ minLabels: 2.5, minAgreement: 0.6 }, 'calibration.minLabels'],
    [{ minLabels: 30, minAgreement: 0 }, 'calibration.minAgreement'],
    [{ minLabels: 30, minAgreement: 1.2 }, 'calibration.minAgreement'],
    [{ minLabels: 30 }, 'calibration.minAgreement'],
    [{ minLabels: 30, minAgreement: 0.6, min: 1 }, 'calibration'],
  ])('%j is refused naming %s', (calibration, field) => {
    let caught: unknown
    try {
      resolveSuite({ ...base, calibration } as never)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(InvalidSuiteError)
    expect((caught as InvalidSuiteError).message).toContain(field)
  })

  test('a suite with no judge to calibrate is refused', () => {
    expect(() => resolveSuite({ ...base, scorers: [() => true], calibration: { minLabels: 30, minAgreement: 0.6 } })).toThrow(/no scorer of the suite is a judge/)
  })
})

describe('labels read from the review records (ADR 0351)', () => {
  /** A review of case `caseId` of run `run` by `reviewer`, on the judge (and any other scorer named in `judges`). */
  async function review(run: RunDocument, caseId: string, reviewer: string, judges: Record<string, 'agree' | 'disagree'>, second = 0, digest?: string) {
    const result = run.results.find((r) => r.case_id === caseId)!
    await store.appendReview(
      newReview({
        reviewer,
        tenant: run.tenant,
        suite: run.suite,
        run: keyOf(run),
        case_id: caseId,
        answer_digest: digest ?? answerDigestOf(result),
        judges,
        verdict: 'pass',
        note: null,
        created_at: `2026-12-01T10:00:${String(second).padStart(2, '0')}.000001Z`,
      }),
    )
  }

  async function filedPair(): Promise<RunDocument> {
    const baseline = runOf(all(40, 'pp'), BASELINE_AT)
    await store.writeRun(baseline)
    await promoteFirst(store, baseline, '2026-11-29T12:00:00.000001Z')
    const run = runOf(JUDGE_DROP)
    await store.writeRun(run)
    return run
  }

  test("each reviewer's newest label counts, paired with the judge's verdict in the labelled run; other scorers' opinions are ignored", async () => {
    const run = await filedPair()
    await review(run, 'c000', 'ana', { judge: 'agree', exact: 'disagree' }, 1)
    await review(run, 'c000', 'ana', { judge: 'disagree' }, 2)
    await review(run, 'c000', 'ben', { judge: 'agree' }, 3)
    await review(run, 'c035', 'ana', { judge: 'agree' }, 4)
    const outcome = await judgeRun(store, run, { tenant: 'acme', suite: 'capitals', key: keyOf(run), location: 'here' })
    // c000: the judge passed it; ana now disagrees, ben agrees. c035: the judge failed it, ana agrees.
    expect(outcome.agreement).toMatchObject([{ judge: 'judge', labels: 3, units: 2, observed: 2 / 3, missing_labels: 27 }])
    expect(outcome.status).toBe('uncalibrated')
  })

  test('a label of other answers than the case holds, or of a judge with another config in the labelled run, does not count', async () => {
    const run = await filedPair()
    await review(run, 'c001', 'ana', { judge: 'agree' }, 1, 'f'.repeat(64))
    const older = runOf(JUDGE_DROP, '2026-11-29T11:00:00.000001Z')
    older.judge_config.scorers[1]!.config = { ...JUDGE_CONFIG, rubric: 'an older prompt' }
    await store.writeRun(older)
    await review(older, 'c002', 'ana', { judge: 'agree' }, 2)
    const same = runOf(JUDGE_DROP, '2026-11-29T11:30:00.000001Z')
    await store.writeRun(same)
    await review(same, 'c003', 'ana', { judge: 'agree' }, 3)
    const outcome = await judgeRun(store, run, { tenant: 'acme', suite: 'capitals', key: keyOf(run), location: 'here' })
    expect(outcome.agreement).toMatchObject([{ judge: 'judge', labels: 1, units: 1 }])
  })

  test('the MCP explanation and the report carry the agreement and why the run was not judged', async () => {
    const run = await filedPair()
    const explained = await explainRun(store, 'acme', 'capitals', keyOf(run))
    expect(explained.status).toBe('uncalibrated')
    expect(explained.exit_code).toBe(2)
    expect(explained.judges).toMatchObject([
      { judge: 'judge', labels: 0, missing_labels: 30, words: 'judge judge: no human label yet: not calibrated, 0 of the 30 labels it needs (30 missing)' },
    ])
    expect(explained.not_judged).toContain('the judge is not calibrated')
    expect(explained.promotion.command).toBeNull()
    const report = await reportData(store, { tenant: 'acme', suites: ['capitals'], run: keyOf(run) })
    expect(report.suites[0]!.status).toBe('uncalibrated')
    expect(report.suites[0]!.agreement).toMatchObject([{ judge: 'judge', missing_labels: 30 }])
    expect(report.suites[0]!.not_judged).toContain('30 missing')
  })
})
