// What `digline report` adds to GITHUB_STEP_SUMMARY (ADR 0057): per suite, a Mermaid xychart of the
// pass rate over the recent runs (GitHub draws Mermaid blocks), and one line saying where the report is.
import type { HistoryPoint, ReportData } from './report-data.js'

/** How many runs the summary chart shows; the report itself shows more. */
export const SUMMARY_RUNS = 15

export interface ReportLink {
  /** The report file as written (a path relative to the workspace reads best). */
  file: string
  /** DIGLINE_REPORT_URL when set: where the report can be opened. */
  url?: string
  /** The workflow run's page, whose Artifacts list holds the uploaded report. */
  runPage?: string
}

// Labels are quoted strings in xychart-beta; a quote inside one would end it.
const label = (p: HistoryPoint): string => JSON.stringify(`${p.created_at.slice(5, 10)} ${p.created_at.slice(11, 16)}`.replace(/"/g, ''))

export function passRateChart(suite: string, history: readonly HistoryPoint[]): string | undefined {
  const points = history.filter((p) => p.pass_rate !== null).slice(-SUMMARY_RUNS)
  if (points.length === 0) return undefined
  const rates = points.map((p) => Math.round((p.pass_rate ?? 0) * 1000) / 10)
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${suite.replace(/"/g, '')}: pass rate of the last ${points.length} run(s), %"`,
    `  x-axis [${points.map(label).join(', ')}]`,
    '  y-axis "pass rate (%)" 0 --> 100',
    `  line [${rates.join(', ')}]`,
    '```',
  ].join('\n')
}

/** The where-is-the-report line: a link when the URL is known, else the artifact list of the run. */
export function reportLinkLine(link: ReportLink): string {
  const name = `\`${link.file}\``
  if (link.url !== undefined && link.url !== '') return `**Report:** [open the digline report](${link.url}) (${name}, one self-contained HTML file).`
  if (link.runPage !== undefined)
    return `**Report:** ${name}, one self-contained HTML file, is attached to [this workflow run](${link.runPage}#artifacts) when the workflow uploads it as an artifact.`
  return `**Report:** ${name}, one self-contained HTML file.`
}

export function formatReportSummary(data: ReportData, link: ReportLink): string {
  const out = ['## digline report', '']
  for (const suite of data.suites) {
    const chart = passRateChart(suite.suite, suite.history)
    if (chart !== undefined) out.push(chart, '')
  }
  out.push(reportLinkLine(link), '')
  return out.join('\n')
}

/** The workflow run's page from GitHub Actions' own variables, when they are all set. */
export function workflowRunPage(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env
  return server && repo && run ? `${server}/${repo}/actions/runs/${run}` : undefined
}
