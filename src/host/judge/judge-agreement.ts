// Each judge of a run held against the people who labelled its verdicts (SPEC §17, ADR 0351): how
// many labels it has met, its Cohen's kappa with them and the interval, and, when the suite asks for
// calibration, whether it may fail the run. A judge is a scorer whose config names a model; a label
// counts for a judge of the same name, config and pass_at as the run's.
import type { CaseResult, JudgeConfig, RunDocument } from '../../document/schema.js'
import { caseOutcome, sampleOutcome } from '../../driver/case-verdict.js'
import { cohenKappa, type Kappa } from '../../stats/cohen-kappa.js'
import { canonicalJson } from '../../suite/hashing.js'
import { judgeNames } from '../../suite/judge-scorers.js'

/** One person's label of one judge's verdict on one labelled answer. */
export interface JudgeLabel {
  judge: string
  /** The labelled answer (`run/case`): labels of one answer resample together. */
  unit: string
  /** The judge's verdict on the case, as the person saw it. */
  judged: boolean
  /** The verdict the person says is right for this judge (agree: the judge's own; disagree: the other). */
  human: boolean
}

export interface JudgeAgreement extends Kappa {
  judge: string
  /** With the suite's calibration: whether the judge met it; null when the suite sets none. */
  calibrated: boolean | null
  /** Labels still needed to reach the suite's min_labels (0 when reached or no calibration). */
  missing_labels: number
  /** Why the judge is not calibrated, in words; null when it is or when no calibration is set. */
  why: string | null
}

const kappaText = (k: number | null): string => (k === null ? 'n/a' : k.toFixed(2))

/** The agreement of each judge of `document` with `labels` (those of other scorers are ignored). */
export function agreementOf(document: Pick<RunDocument, 'judge_config' | 'rules'>, labels: readonly JudgeLabel[]): JudgeAgreement[] {
  const calibration = document.rules.calibration
  return judgeNames(document.judge_config).map((judge) => {
    const kappa = cohenKappa(labels.filter((l) => l.judge === judge).map((l) => ({ unit: l.unit, judge: l.judged, human: l.human })))
    if (calibration === undefined) return { judge, ...kappa, calibrated: null, missing_labels: 0, why: null }
    const missing = Math.max(0, calibration.min_labels - kappa.labels)
    let why: string | null = null
    if (missing > 0) why = `${kappa.labels} of the ${calibration.min_labels} labels it needs (${missing} missing)`
    else if (kappa.kappa === null)
      why = `its ${kappa.labels} labels and verdicts are all one verdict, so agreement beyond chance cannot be measured (label answers it fails as well as ones it passes)`
    else if (kappa.kappa < calibration.min_agreement) why = `kappa ${kappaText(kappa.kappa)} with ${kappa.labels} labels, below the ${calibration.min_agreement} it needs`
    return { judge, ...kappa, calibrated: why === null, missing_labels: missing, why }
  })
}

/** The agreement in one line: judge, kappa with its interval, labels, and the calibration's word. */
export function describeAgreement(a: JudgeAgreement): string {
  const ci = a.ci95 === null ? '' : `, 95% interval [${a.ci95.low.toFixed(2)}, ${a.ci95.high.toFixed(2)}]`
  const agree =
    a.labels === 0
      ? 'no human label yet'
      : `kappa ${kappaText(a.kappa)}${ci}, ${a.labels} label${a.labels === 1 ? '' : 's'} of ${a.units} answer${a.units === 1 ? '' : 's'}, ${(a.observed * 100).toFixed(0)}% agree`
  const gate = a.calibrated === null ? '' : a.calibrated ? ': calibrated' : `: not calibrated, ${a.why}`
  return `judge ${a.judge}: ${agree}${gate}`
}

/** The scorer `judge` of the config, as what makes it the same judge: its config and pass_at. */
export function judgeIdentity(config: JudgeConfig, judge: string): string | undefined {
  const scorer = config.scorers.find((s) => s.name === judge)
  return scorer === undefined ? undefined : canonicalJson({ config: scorer.config, pass_at: scorer.pass_at })
}

/** One scorer's verdict on a judged case: its samples held to the run's min_agreement, as the case's are. */
export function scorerVerdict(result: CaseResult, scorer: string, rules: RunDocument['rules']): boolean | undefined {
  if (result.verdict === 'error') return undefined
  const samples = result.samples.map((s) => {
    const own = s.scorers.filter((x) => x.name === scorer)
    return { ...s, ...sampleOutcome(own), scorers: own }
  })
  if (samples.every((s) => s.scorers.length === 0)) return undefined
  return caseOutcome(samples, rules).verdict === 'pass'
}

/**
 * The results as they would be without the named scorers: each sample passes when the others pass,
 * each case by the same rule. An errored case stays errored; a sample left with no scorer passes.
 */
export function withoutScorers(results: readonly CaseResult[], names: ReadonlySet<string>, rules: RunDocument['rules']): CaseResult[] {
  return results.map((r) => {
    if (r.verdict === 'error') return r
    const samples = r.samples.map((s) => {
      const kept = s.scorers.filter((x) => !names.has(x.name))
      return { ...s, ...(kept.length === 0 ? { pass: true, score: 1 } : sampleOutcome(kept)), scorers: kept }
    })
    return { ...r, samples, ...caseOutcome(samples, rules) }
  })
}

/** Why an `uncalibrated` outcome was not judged: what failed, which judges it rests on, what they lack, and what to do. */
export function describeUncalibrated(outcome: { suite: string; status: string; agreement?: readonly JudgeAgreement[]; uncalibrated?: readonly string[] }): string {
  const judges = (outcome.agreement ?? []).filter((a) => outcome.uncalibrated?.includes(a.judge) === true)
  const lacking = judges.map((a) => `${a.judge} has ${a.why ?? 'not met its calibration'}`).join('; ')
  const missing = judges.reduce((n, a) => n + a.missing_labels, 0)
  const label =
    missing > 0
      ? `label ${missing} more of its verdicts in \`digline view --suite ${outcome.suite}\``
      : `label more of its verdicts in \`digline view --suite ${outcome.suite}\`, or revise the judge`
  return `the judge is not calibrated: the run fails only through judge${judges.length === 1 ? '' : 's'} ${judges.map((a) => a.judge).join(', ')}, below the suite's calibration (${lacking}); ${label}`
}
