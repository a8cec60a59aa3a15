// The words a person reads about a finished suite: printed by the reporter and by `digline show`.
import pc from 'picocolors'
import type { Aggregates } from '../../document/schema.js'
import type { SuiteOutcome, CaseLine, SuiteStatus } from './suite-outcome.js'
import { describeBorderline, formatComparisonText } from './format-comparison.js'
import { formatMeasure, percent } from './percent.js'
import { describeAgreement, describeUncalibrated } from './judge-agreement.js'
import { printable } from '../../suite/printable-text.js'

export { percent }

export function formatAggregates(a: Aggregates): string {
  const ci = a.pass_rate_ci95 === null ? '' : ` [${percent(a.pass_rate_ci95.low)}, ${percent(a.pass_rate_ci95.high)}]`
  const score = a.mean_score === null ? 'n/a' : a.mean_score.toFixed(3)
  const samples =
    a.samples_taken === undefined ? `${a.samples_per_case} sample${a.samples_per_case === 1 ? '' : 's'}` : `up to ${a.samples_per_case} samples (${a.samples_taken} taken)`
  return `${a.cases} cases × ${samples} · pass rate ${percent(a.pass_rate)}${ci} · mean score ${score} · ${a.passed} passed, ${a.failed} failed, ${a.errored} errored`
}

const MAX_CASE_LINES = 20

export function formatCaseLines(lines: readonly CaseLine[], max = MAX_CASE_LINES, run?: { suite: string; key: string }): string[] {
  const out = lines.slice(0, max).map((c) => {
    const mark = c.verdict === 'error' ? pc.red('error') : c.verdict === 'fail' ? pc.yellow('fail ') : pc.green('pass ')
    const score = c.score === null ? '  -  ' : c.score.toFixed(2).padStart(5)
    return `    ${mark} ${c.case_id} ${pc.dim(score)} ${truncate(printable(c.reason ?? ''), 160)}`
  })
  if (lines.length > max)
    out.push(pc.dim(`    … and ${lines.length - max} more${run === undefined ? '' : ` (\`digline show --suite ${run.suite} --run ${run.key} --all\` lists them all)`}`))
  return out
}

const BADGES: Record<SuiteStatus, string> = {
  held: pc.green('holds'),
  missed: pc.red('missed'),
  regressed: pc.red('regressed'),
  errored: pc.red('not judged'),
  'baseline-unreadable': pc.red('not judged'),
  uncalibrated: pc.red('not judged'),
}

export function formatOutcome(o: SuiteOutcome): string {
  if (o.shard?.open === true) return formatOpenShard(o)
  const lines = [`${pc.bold(`digline ${o.suite}`)} ${BADGES[o.status]} ${pc.dim(o.key)}`, `  ${formatAggregates(o.aggregates)}`]
  if (o.cachedAnswers !== undefined)
    lines.push(
      pc.yellow(
        `  ${o.cachedAnswers} answer${o.cachedAnswers === 1 ? '' : 's'} came from the response cache: this run is never promoted (run with --no-cache to measure it afresh)`,
      ),
    )
  if (o.borderline !== undefined) lines.push(`  ${pc.yellow('borderline')} ${describeBorderline(o.borderline, MAX_CASE_LINES, (id) => id)}`)
  for (const m of o.misses) lines.push(`  ${pc.red('threshold')} ${m.field}: ${formatMeasure(m.field, m.actual)} < ${formatMeasure(m.field, m.required)}`)
  if (o.comparison !== undefined) lines.push(...formatComparisonText(o.comparison))
  else if (o.location !== undefined) lines.push(pc.dim(`  no baseline: judged by its thresholds alone${noBaselineHint(o)}`))
  for (const a of o.agreement ?? []) lines.push(`  ${a.calibrated === false ? pc.yellow(describeAgreement(a)) : describeAgreement(a)}`)
  if (o.status === 'uncalibrated') lines.push(`  ${pc.red('not judged')} ${describeUncalibrated(o)}`)
  lines.push(...formatCaseLines(o.notPassed, MAX_CASE_LINES, o.location === undefined ? undefined : { suite: o.suite, key: o.key }))
  lines.push(pc.dim(o.location === undefined ? '  filtered run: no run document written' : `  run document: ${o.location}`))
  if (o.shard !== undefined) lines.push(pc.dim(`  sharded run: shard ${o.shard.shard} saw every shard's cases journaled, and this is the whole run's verdict`))
  return lines.join('\n')
}

/** A shard that is not the last: its own cases, and what the run still waits for (never a verdict of the run). */
function formatOpenShard(o: SuiteOutcome): string {
  const shard = o.shard!
  const badge = o.aggregates.errored > 0 ? pc.red('shard errored') : pc.green('shard done')
  const waiting = shard.waiting.map((w) => `${w.shard} (${w.state}, ${w.journaled} of ${w.share} case(s) journaled)`).join(', ')
  return [
    `${pc.bold(`digline ${o.suite}`)} ${badge} ${pc.dim(`shard ${shard.shard} of run ${o.key}`)}`,
    `  this shard's cases: ${formatAggregates(o.aggregates)}`,
    ...formatCaseLines(o.notPassed, MAX_CASE_LINES),
    `  run ${o.key} is still open${waiting === '' ? '' : `: waiting for shard(s) ${waiting}`}; the last shard to finish files it and gives the run's verdict`,
  ].join('\n')
}

/** The next step for a written run of a suite with no baseline: only a command that would be accepted. */
function noBaselineHint(o: SuiteOutcome): string {
  if (o.replayOf !== undefined) return ` (a replay is never promoted; to make a baseline, promote a run of ${o.suite} made with \`vitest run\`)`
  if (o.aggregates.errored > 0) return ` (a run with an errored case is never promoted; fix the errors and run the suite again with \`vitest run\`)`
  if (o.slice !== undefined) return ` (a slice is never promoted; to make a baseline: digline run --suite ${o.suite}, without --tag, then promote that run)`
  if (o.cachedAnswers !== undefined) return ` (a run with cached answers is never promoted; to make a baseline: digline run --no-cache, then promote that run)`
  return ` (to make this run the baseline: digline promote --suite ${o.suite} --run ${o.key})`
}

function truncate(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ')
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`
}
