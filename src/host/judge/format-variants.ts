// The variant table a launch prints when a suite's variants are filed (SPEC §15, ADR 0301).
import type { VariantAmount, VariantComparison, VariantPair } from './variant-comparison.js'
import { percent } from './percent.js'
import { markdownText } from '../../suite/markdown-text.js'

const points = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(1)}`

function shown(a: VariantAmount | null, digits: number): string {
  if (a === null) return 'n/a'
  const v = (x: number): string => x.toFixed(digits)
  return a.ci95 === null ? v(a.mean) : `${v(a.mean)} [${v(a.ci95.low)}, ${v(a.ci95.high)}]`
}

/** The verdict of a pair in words. */
export function pairVerdictText(p: VariantPair): string {
  return p.verdict === 'a_better' ? `${p.a} is better` : p.verdict === 'b_better' ? `${p.b} is better` : 'no difference shown'
}

/** One pair's line: the difference A − B in points with its adjusted interval, the discordant counts, the verdict. */
export function describePair(p: VariantPair): string {
  return `${p.a} − ${p.b}: ${points(p.difference)} points [${points(p.interval.low)}, ${points(p.interval.high)}] over ${p.shared} shared cases (${p.a_only} passed only by ${p.a}, ${p.b_only} only by ${p.b}): ${pairVerdictText(p)}`
}

/** How each pair's interval was made, in one sentence. */
export function describePairLevel(c: VariantComparison): string {
  const pairs = c.pairs.length
  return `${(c.level * 100).toFixed(pairs > 1 ? 2 : 0)}% intervals (95% shared by ${pairs} pair${pairs === 1 ? '' : 's'}, Bonferroni), exact test on the cases where one variant passed and the other failed`
}

const HEAD = ['variant', 'pass rate', 'mean score', 'cost/case', 'tokens/case', 'latency/case (ms)', 'run']

/** Each variant's row of the table, as text cells in the order of HEAD. */
function rowsOf(c: VariantComparison): string[][] {
  return c.variants.map((v) => [
    v.variant,
    `${percent(v.pass_rate)}${v.pass_rate_ci95 === null ? '' : ` [${percent(v.pass_rate_ci95.low)}, ${percent(v.pass_rate_ci95.high)}]`}${v.errored > 0 ? ` (${v.errored} errored)` : ''}`,
    shown(v.mean_score, 3),
    shown(v.cost_per_case, 6),
    shown(v.tokens_per_case, 1),
    shown(v.latency_per_case, 0),
    v.key,
  ])
}

function title(c: VariantComparison): string {
  return `${c.variants.length} variant${c.variants.length === 1 ? '' : 's'} asked the same cases (each filed as ${c.suite}.<variant>)`
}

export function formatVariantTable(c: VariantComparison): string {
  const rows = rowsOf(c)
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]): string => `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}`
  const out = [`digline variants of ${c.suite}: ${title(c)}`, line(HEAD), ...rows.map(line)]
  if (c.pairs.length > 0) {
    out.push(`  pairs, the paired difference of pass rates in points: ${describePairLevel(c)}`)
    for (const p of c.pairs) out.push(`    ${describePair(p)}`)
  }
  return out.join('\n')
}

/** The same table as markdown, for GITHUB_STEP_SUMMARY: names are the suite's, so written as literals. */
export function formatVariantMarkdown(c: VariantComparison): string {
  const row = (cells: string[]): string => `| ${cells.map(markdownText).join(' | ')} |`
  const out = [`### Variants of ${markdownText(c.suite)}`, '', markdownText(title(c)), '', row(HEAD), `|${HEAD.map(() => '---').join('|')}|`, ...rowsOf(c).map(row)]
  if (c.pairs.length > 0) {
    out.push('', `Pairs, the paired difference of pass rates in points: ${markdownText(describePairLevel(c))}.`, '')
    for (const p of c.pairs) out.push(`- ${markdownText(describePair(p))}`)
  }
  return `${out.join('\n')}\n`
}
