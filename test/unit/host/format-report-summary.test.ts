// The job summary's chart and report line (ADR 0057).
import { describe, expect, test } from 'vitest'
import { passRateChart, reportLinkLine, workflowRunPage } from '../../../src/host/report-data/format-report-summary.js'
import type { HistoryPoint } from '../../../src/host/report-data/report-data.js'

const point = (created_at: string, pass_rate: number | null): HistoryPoint => ({ key: 'k', created_at, pass_rate, ci95: null, cases: 10, replay: false, baseline: false })

describe('the summary chart', () => {
  test('a Mermaid xychart of the pass rates in percent, runs without a rate left out', () => {
    const chart = passRateChart('tri"age', [point('2026-11-29T10:00:00.000001Z', 1), point('2026-11-29T11:00:00.000001Z', null), point('2026-11-30T09:05:00.000001Z', 0.7272727)])
    expect(chart).toBe(
      [
        '```mermaid',
        'xychart-beta',
        '  title "triage: pass rate of the last 2 run(s), %"',
        '  x-axis ["11-29 10:00", "11-30 09:05"]',
        '  y-axis "pass rate (%)" 0 --> 100',
        '  line [100, 72.7]',
        '```',
      ].join('\n'),
    )
    expect(passRateChart('empty', [point('2026-11-29T10:00:00.000001Z', null)])).toBeUndefined()
  })

  test('the report line links DIGLINE_REPORT_URL, else the run page of the workflow, else names the file', () => {
    expect(reportLinkLine({ file: 'report.html', url: 'https://example.com/r.html' })).toBe(
      '**Report:** [open the digline report](https://example.com/r.html) (`report.html`, one self-contained HTML file).',
    )
    const page = workflowRunPage({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '42' })
    expect(page).toBe('https://github.com/o/r/actions/runs/42')
    expect(reportLinkLine({ file: 'report.html', runPage: page })).toContain('[this workflow run](https://github.com/o/r/actions/runs/42#artifacts)')
    expect(workflowRunPage({ GITHUB_REPOSITORY: 'o/r' })).toBeUndefined()
    expect(reportLinkLine({ file: 'report.html' })).toBe('**Report:** `report.html`, one self-contained HTML file.')
  })
})
