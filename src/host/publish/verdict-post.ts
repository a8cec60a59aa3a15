// What `digline comment` posts, as plain data: the launch's verdict in markdown (the job summary's
// renderer, so both say the same), under a hidden marker that names the suite set, with the link to
// the report; and the regressed cases (pass in the baseline, fail now) the check run annotates.
import { EXIT_CODES, worstExitCode, type ExitCode } from '../../exit-codes.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from '../../suite/safe-segment.js'
import type { Store } from '../../store/contract.js'
import { DIGLINE_VERSION } from '../../version.js'
import { UsageError } from '../errors.js'
import { formatLaunchMarkdown, type VerdictView } from '../judge/format-comparison.js'
import { exitCodeForStatus } from '../judge/suite-outcome.js'
import { reportLinkLine, type ReportLink } from '../report-data/format-report-summary.js'
import { reportData, type SuiteReport } from '../report-data/report-data.js'

/** GitHub refuses a comment body or check-run summary over 65,536 characters; the rest is in the report. */
export const MAX_BODY = 60_000

export interface RegressedCase {
  suite: string
  id: string
  baseline_key: string
  run_key: string
  score: number | null
  reason: string | null
  /** The suite regressed (the annotation is a failure); else the flip is within the tolerance (a warning). */
  gating: boolean
}

export interface VerdictPostRequest {
  tenant: string
  /** The suites; empty: every live suite of the tenant with a run. */
  suites: readonly string[]
  /** A key or latest. */
  run: string
  /** Names the comment among others on the same pull request; default: the suites named, or `all`. */
  set?: string
  /** The launch's DIGLINE_CREATED_AT: a suite whose run is not of that launch is reported as not run. */
  createdAt?: string
  link: ReportLink
  /** The commit the verdict is for, shown in the comment's footer. */
  commit?: string
}

export interface VerdictPost {
  set: string
  /** The hidden first line that finds this comment again on the next push. */
  marker: string
  exitCode: ExitCode
  /** The comment: marker, verdict, report link, footer. */
  body: string
  /** The same without the marker and the footer, for a check run's summary. */
  summary: string
  /** One line, for a check run's title. */
  title: string
  suites: string[]
  /** Suites left out: no run of this launch. */
  notRun: { suite: string; reason: string }[]
  regressed: RegressedCase[]
}

export function setName(suites: readonly string[], set: string | undefined): string {
  if (set !== undefined) {
    if (!isSafeSegment(set)) throw new UsageError(`digline comment: --set ${JSON.stringify(set)} is not a name (${SAFE_SEGMENT_RULE})`, 'Run `digline comment --help`.', ['--set'])
    return set
  }
  return suites.length === 0 ? 'all' : [...suites].sort().join('+')
}

export function markerOf(set: string): string {
  return `<!-- digline:comment set=${set} -->`
}

function viewOf(s: SuiteReport): VerdictView {
  return { suite: s.suite, key: s.run.key, status: s.status, aggregates: s.aggregates, misses: s.misses, ...(s.comparison === null ? {} : { comparison: s.comparison }) }
}

function regressedOf(s: SuiteReport): RegressedCase[] {
  const c = s.comparison
  if (c === null || c.status === 'unreadable') return []
  return s.cases
    .filter((row) => row.flip === 'pass_to_fail')
    .map((row) => ({ suite: s.suite, id: row.id, baseline_key: c.baseline.key, run_key: s.run.key, score: row.score, reason: row.reason, gating: s.status === 'regressed' }))
}

function clip(markdown: string): string {
  return markdown.length <= MAX_BODY ? markdown : `${markdown.slice(0, MAX_BODY)}\n\n… cut here: the report holds the rest.\n`
}

/** The verdict to post, read from the store; nothing is written or sent. */
export async function verdictPost(store: Store, request: VerdictPostRequest): Promise<VerdictPost> {
  const set = setName(request.suites, request.set)
  const data = await reportData(store, { tenant: request.tenant, suites: request.suites, run: request.run })
  const notRun = [...data.skipped]
  const judged: SuiteReport[] = []
  for (const s of data.suites) {
    if (request.suites.length === 0 && s.retired_at !== null) continue
    if (request.createdAt !== undefined && request.createdAt !== '' && s.run.created_at !== request.createdAt)
      notRun.push({ suite: s.suite, reason: `no run of this launch (created at ${request.createdAt}); its latest run is ${s.run.key}` })
    else judged.push(s)
  }
  const views = judged.map(viewOf)
  // a suite that this launch should have run and did not is not judged: exit 2, as the gate exited
  const exitCode = worstExitCode([...views.map((v) => exitCodeForStatus(v.status)), ...(notRun.length > 0 && request.createdAt ? [2 as const] : [])])
  const verdict = views.length === 0 ? `## digline: no suite was judged\n\nNo run was found to report on.\n` : formatLaunchMarkdown(views, exitCode)
  const missing = notRun.map((n) => `- \`${n.suite}\`: ${n.reason}`)
  const footer = `<sub>digline ${DIGLINE_VERSION}${request.commit ? ` · commit ${request.commit.slice(0, 12)}` : ''} · this comment is updated in place on each push</sub>`
  const summary = clip([verdict.trimEnd(), ...(missing.length > 0 ? ['', '**Not judged:**', ...missing] : []), '', reportLinkLine(request.link), ''].join('\n'))
  const marker = markerOf(set)
  return {
    set,
    marker,
    exitCode,
    body: `${marker}\n${summary}\n${footer}\n`,
    summary,
    title: views.length === 0 ? 'digline: no suite was judged' : `digline: exit ${exitCode}, ${EXIT_CODES[exitCode].meaning}`.slice(0, 250),
    suites: judged.map((s) => s.suite),
    notRun,
    regressed: judged.flatMap(regressedOf),
  }
}
