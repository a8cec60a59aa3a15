// The comparison in words: terminal text under each suite, and markdown for GITHUB_STEP_SUMMARY and
// `digline compare --format md`.
import pc from 'picocolors'
import type { Aggregates } from '../../document/schema.js'
import type { ThresholdMiss } from '../../driver/thresholds.js'
import { EXIT_CODES, type ExitCode } from '../../exit-codes.js'
import { percent } from './percent.js'
import type { BaselineComparison, ComparedBaseline } from './compare.js'
import { AMOUNT_UNITS, describeAmountGate, type AmountGate } from './amount-gates.js'
import { describeFlaky } from './flaky-cases.js'
import { describeMovedTags, describeTagSlice } from './tag-breakdown.js'
import { dropBeyond } from '../../stats/gate-rule.js'
import type { SuiteOutcome, SuiteStatus } from './suite-outcome.js'
import type { BorderlineCount } from '../../document/borderline-cases.js'
import { printable } from '../../suite/printable-text.js'
import { markdownText } from '../../suite/markdown-text.js'
import { describeAgreement, describeUncalibrated } from './judge-agreement.js'

/** What a verdict is printed from: a SuiteOutcome, or what `digline compare` builds from a stored run. */
export type VerdictView = Pick<SuiteOutcome, 'suite' | 'key' | 'status' | 'aggregates' | 'misses' | 'comparison'> &
  Partial<Pick<SuiteOutcome, 'shard' | 'borderline' | 'agreement' | 'uncalibrated'>>

const MAX_IDS_TEXT = 20
const MAX_IDS_MD = 50

const pts = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(1)}`
const score = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(3))
const interval = (a: Aggregates): string => (a.pass_rate_ci95 === null ? '' : ` [${percent(a.pass_rate_ci95.low)}, ${percent(a.pass_rate_ci95.high)}]`)

export const STATUS_WORDS: Record<SuiteStatus, string> = {
  held: 'holds',
  missed: 'missed a threshold',
  regressed: 'regressed',
  errored: 'not judged: a case errored',
  'baseline-unreadable': 'not judged: the baseline cannot be read',
  uncalibrated: 'not judged: the judge is not calibrated',
}

/** The sentence about the paired difference: the number a reviewer reads first. */
export function describeDifference(c: ComparedBaseline): string {
  const d = c.difference
  if (d === null) return 'no case was judged in both runs'
  const tolerance = `tolerance ${(c.tolerances.pass_rate * 100).toFixed(1)} points`
  if (d.ci95 === null) return `${pts(d.mean)} points over ${d.n} shared case (too few for an interval; ${tolerance})`
  const basis = d.method === 't' || (d.method === 'cluster' && d.discordant === undefined) ? ", on each case's share of passing samples" : ''
  const clusters = d.method === 'cluster' ? `, cluster-robust over ${d.clusters} clusters (design effect ${d.design_effect!.toFixed(2)})` : ''
  return `${pts(d.mean)} points, 95% interval [${pts(d.ci95.low)}, ${pts(d.ci95.high)}] over ${d.n} shared cases${basis}${clusters} (${tolerance})`
}

/** The gates on cost, tokens and latency the suite declares (an undeclared one is in the data, not in the text). */
export function declaredGates(c: ComparedBaseline): AmountGate[] {
  return c.gates.filter((g) => g.tolerance !== null)
}

function idList(ids: readonly string[], max: number, quote: (id: string) => string): string {
  const shown = ids.slice(0, max).map(quote).join(', ')
  return ids.length > max ? `${shown} … and ${ids.length - max} more` : shown
}

/** The two sides' names in the words: the baseline and this run, or run B and run A. */
export function sidesOf(c: ComparedBaseline): { heading: string; then: string; now: string; onlyNow: string; onlyThen: string } {
  if (c.reference === 'run')
    return {
      heading: `against run ${c.baseline.key}`,
      then: `run ${c.baseline.key}`,
      now: `run ${c.run.key}`,
      onlyNow: `only in run ${c.run.key}`,
      onlyThen: `only in run ${c.baseline.key}`,
    }
  return { heading: `against baseline ${c.baseline.key}`, then: 'baseline', now: 'this run', onlyNow: 'added since the baseline', onlyThen: 'removed since the baseline' }
}

/** The sentence that says when the two case sets differ, and by how many; undefined when they are the same. */
export function describeCaseSets(c: ComparedBaseline): string | undefined {
  if (c.added.length + c.removed.length === 0) return undefined
  const s = sidesOf(c)
  return `the case sets differ: ${c.shared} shared (the difference is taken over these), ${c.added.length} ${s.onlyNow}, ${c.removed.length} ${s.onlyThen}`
}

/** The comparison under a suite's verdict in the terminal, each line indented by two spaces. */
export function formatComparisonText(c: BaselineComparison): string[] {
  if (c.status === 'unreadable') {
    const [what, ...rest] = c.problem.message.split('\n')
    return [`  ${pc.red('baseline')} ${c.problem.name}: ${what}`, ...rest.map((line) => `  ${line.trim() === '' ? '' : `  ${line.trim()}`}`)]
  }
  const b = c.baseline.aggregates
  const r = c.run.aggregates
  const col = (text: string) => text.padEnd(28)
  const s = sidesOf(c)
  const when = c.reference === 'run' ? `created ${c.baseline.promoted_at}` : `promoted ${c.baseline.promoted_at}`
  const lines = [
    `  ${s.heading} ${pc.dim(`(${when})`)}${c.status === 'not-comparable' ? pc.yellow(' — not comparable, does not gate') : ''}`,
    `    ${''.padEnd(12)}${col(c.reference === 'run' ? 'B (against)' : 'baseline')}${c.reference === 'run' ? 'A (this run)' : 'this run'}`,
    `    ${'pass rate'.padEnd(12)}${col(`${percent(b.pass_rate)}${interval(b)}`)}${percent(r.pass_rate)}${interval(r)}`,
    `    ${'mean score'.padEnd(12)}${col(score(b.mean_score))}${score(r.mean_score)}`,
    `    ${'cases'.padEnd(12)}${col(`${b.passed} passed, ${b.failed} failed`)}${r.passed} passed, ${r.failed} failed, ${r.errored} errored`,
    `    ${'difference'.padEnd(12)}${describeDifference(c)}`,
  ]
  for (const g of declaredGates(c)) lines.push(`    ${AMOUNT_UNITS[g.gate].padEnd(17)}${g.regressed ? pc.red(describeAmountGate(g)) : describeAmountGate(g)}`)
  for (const reason of c.reasons) lines.push(`    ${pc.red('regressed')} ${printable(reason)}`)
  if (c.status === 'compared' && !c.regressed && c.difference?.ci95 != null && !dropBeyond(c.difference.ci95, c.tolerances.pass_rate)) {
    const floor = c.tolerances.pass_rate === 0 ? 'zero' : `−${(c.tolerances.pass_rate * 100).toFixed(1)} points`
    lines.push(`    ${pc.green('no regression')}: the interval reaches ${floor} or above`)
  }
  const quote = (id: string) => id
  lines.push(`    pass → fail (${c.flipped.pass_to_fail.length})${c.flipped.pass_to_fail.length === 0 ? '' : `: ${idList(c.flipped.pass_to_fail, MAX_IDS_TEXT, quote)}`}`)
  lines.push(`    fail → pass (${c.flipped.fail_to_pass.length})${c.flipped.fail_to_pass.length === 0 ? '' : `: ${idList(c.flipped.fail_to_pass, MAX_IDS_TEXT, quote)}`}`)
  const moved = c.trajectories_changed ?? []
  if (moved.length > 0) lines.push(`    trajectory changed (${moved.length}): ${idList(moved, MAX_IDS_TEXT, quote)}`)
  const caseSets = describeCaseSets(c)
  if (caseSets !== undefined && c.reference === 'run') lines.push(`    ${caseSets}`)
  if (c.added.length > 0) lines.push(`    ${s.onlyNow} (${c.added.length}): ${idList(c.added, MAX_IDS_TEXT, quote)}`)
  if (c.removed.length > 0) lines.push(`    ${s.onlyThen} (${c.removed.length}): ${idList(c.removed, MAX_IDS_TEXT, quote)}`)
  if (c.flaky.cases.length > 0) lines.push(`    ${pc.dim(describeFlaky(c.flaky))}: ${idList(c.flaky.cases, MAX_IDS_TEXT, quote)}`)
  lines.push(...tagLines(c, (line) => `    ${line}`))
  if (c.borderline_flips.length > 0) lines.push(`    ${pc.yellow('flipped at the threshold')} (${c.borderline_flips.length}): ${idList(c.borderline_flips, MAX_IDS_TEXT, quote)}`)
  for (const warning of c.warnings) lines.push(`    ${pc.yellow('warning')} ${printable(warning)}`)
  return lines
}

/** The breakdown by tag, one line per tag, then the tags that moved. */
function tagLines(c: ComparedBaseline, shape: (line: string) => string): string[] {
  if (c.tags === undefined) return []
  const moved = describeMovedTags(c.tags)
  return [...c.tags.map((s) => shape(`by tag ${describeTagSlice(s)}`)), ...(moved === undefined ? [] : [shape(moved)])]
}

/** The borderline count in one sentence: how many cases, samples, their verdicts, and which. */
export function describeBorderline(b: BorderlineCount, max: number, quote: (id: string) => string): string {
  const cases = `${b.cases.length} case${b.cases.length === 1 ? '' : 's'} (${b.samples} sample${b.samples === 1 ? '' : 's'})`
  return `${cases} scored within the suite's borderline band of pass_at, ${b.passed} passed and ${b.failed} failed: ${idList(b.cases, max, quote)}`
}

function missLine(m: ThresholdMiss): string {
  return `threshold ${m.field}: ${m.field === 'pass_rate' ? percent(m.actual) : score(m.actual)} < ${m.field === 'pass_rate' ? percent(m.required) : score(m.required)}`
}

/** One suite in markdown: verdict, aggregates against the baseline with the interval, flipped cases. */
export function formatVerdictMarkdown(v: VerdictView): string {
  if (v.shard?.open === true) {
    const waiting = v.shard.waiting.map((w) => `${w.shard} (${w.state})`).join(', ')
    const r = v.aggregates
    return `### \`${v.suite}\`: shard ${v.shard.shard} done, run \`${v.key}\` still open\n\nThis shard's cases: ${r.passed} passed, ${r.failed} failed, ${r.errored} errored. Waiting for shard(s) ${waiting || 'none'}; the last shard to finish files the run and gives its verdict.\n`
  }
  const out = [`### \`${v.suite}\`: ${STATUS_WORDS[v.status]}`, '']
  const c = v.comparison
  const r = v.aggregates
  if (c === undefined || c.status === 'unreadable') {
    out.push('| | this run |', '|---|---|', `| key | \`${v.key}\` |`)
    out.push(`| pass rate | ${percent(r.pass_rate)}${interval(r)} |`, `| mean score | ${score(r.mean_score)} |`)
    out.push(`| passed / failed / errored | ${r.passed} / ${r.failed} / ${r.errored} |`, '')
    out.push(c === undefined ? 'No baseline: judged by its thresholds alone.' : `**Baseline unreadable** (${c.problem.name}): ${markdownText(c.problem.message.split('\n')[0]!)}`)
  } else {
    const b = c.baseline.aggregates
    const s = sidesOf(c)
    out.push(c.reference === 'run' ? '| | B (against) | A (this run) |' : `| | baseline | this run |`, '|---|---|---|', `| key | \`${c.baseline.key}\` | \`${c.run.key}\` |`)
    out.push(`| pass rate | ${percent(b.pass_rate)}${interval(b)} | ${percent(r.pass_rate)}${interval(r)} |`)
    out.push(`| mean score | ${score(b.mean_score)} | ${score(r.mean_score)} |`)
    out.push(`| passed / failed / errored | ${b.passed} / ${b.failed} / ${b.errored} | ${r.passed} / ${r.failed} / ${r.errored} |`, '')
    out.push(`**Paired difference of pass rates:** ${describeDifference(c)}.`)
    for (const g of declaredGates(c))
      out.push('', `**${AMOUNT_UNITS[g.gate][0]!.toUpperCase()}${AMOUNT_UNITS[g.gate].slice(1)}:** ${describeAmountGate(g)}${g.regressed ? ' — **regressed**' : ''}.`)
    if (c.status === 'not-comparable')
      out.push('', `_Not comparable: ${s.then === 'baseline' ? 'the baseline was' : `${s.then} was`} judged by other rules, so this comparison does not gate._`)
    for (const reason of c.reasons) out.push('', `**Regressed:** ${markdownText(reason)}.`)
    const quote = (id: string) => `\`${id}\``
    out.push('', `**pass → fail (${c.flipped.pass_to_fail.length})**${c.flipped.pass_to_fail.length === 0 ? '' : `: ${idList(c.flipped.pass_to_fail, MAX_IDS_MD, quote)}`}`)
    out.push('', `**fail → pass (${c.flipped.fail_to_pass.length})**${c.flipped.fail_to_pass.length === 0 ? '' : `: ${idList(c.flipped.fail_to_pass, MAX_IDS_MD, quote)}`}`)
    const moved = c.trajectories_changed ?? []
    if (moved.length > 0) out.push('', `**Trajectory changed (${moved.length})**: ${idList(moved, MAX_IDS_MD, quote)}`)
    const caseSets = describeCaseSets(c)
    if (caseSets !== undefined && c.reference === 'run') out.push('', `${caseSets[0]!.toUpperCase()}${caseSets.slice(1)}.`)
    if (c.added.length > 0) out.push('', `${s.onlyNow[0]!.toUpperCase()}${s.onlyNow.slice(1)} (${c.added.length}): ${idList(c.added, MAX_IDS_MD, quote)}`)
    if (c.removed.length > 0) out.push('', `${s.onlyThen[0]!.toUpperCase()}${s.onlyThen.slice(1)} (${c.removed.length}): ${idList(c.removed, MAX_IDS_MD, quote)}`)
    if (c.flaky.cases.length > 0) out.push('', `${describeFlaky(c.flaky)}: ${idList(c.flaky.cases, MAX_IDS_MD, quote)}`)
    const byTag = tagLines(c, (line) => `- ${printable(line)}`)
    if (byTag.length > 0) out.push('', '**By tag:**', '', ...byTag)
    if (c.borderline_flips.length > 0) out.push('', `**Flipped at the threshold (${c.borderline_flips.length})**: ${idList(c.borderline_flips, MAX_IDS_MD, quote)}`)
  }
  if (v.borderline !== undefined) out.push('', `**Borderline:** ${describeBorderline(v.borderline, MAX_IDS_MD, (id) => `\`${id}\``)}`)
  for (const m of v.misses) out.push('', `**Missed** ${missLine(m)}`)
  const agreement = v.agreement ?? []
  if (agreement.length > 0) out.push('', '**Judges against human labels:**', '', ...agreement.map((a) => `- ${markdownText(describeAgreement(a))}`))
  if (v.status === 'uncalibrated') out.push('', `**Not judged:** ${markdownText(describeUncalibrated(v))}.`)
  for (const warning of c?.warnings ?? []) if (c?.status !== 'unreadable') out.push('', `> Warning: ${markdownText(warning)}`)
  return `${out.join('\n')}\n`
}

/** The whole launch in markdown, as appended to GITHUB_STEP_SUMMARY. */
export function formatLaunchMarkdown(views: readonly VerdictView[], exitCode: ExitCode): string {
  return [`## digline: exit ${exitCode}, ${EXIT_CODES[exitCode].meaning}`, '', ...views.map(formatVerdictMarkdown)].join('\n') + '\n'
}
