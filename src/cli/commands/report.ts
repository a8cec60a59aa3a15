import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { ReportWriteError } from '../errors.js'
import { formatReportSummary, workflowRunPage } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { reportData } from '../../host/index.js'
import { renderPage } from '../../report/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'

export const DEFAULT_REPORT_FILE = 'digline-report.html'

export const reportCommand: Command = {
  name: 'report',
  help: `Usage: digline report [--suite S]... [--run KEY|latest] [--against KEY|latest] [--out FILE]

Writes ONE HTML file that opens offline from disk: per suite, the pass rate with its 95% interval,
the comparison with the baseline drawn against the tolerance, the flipped cases as a baseline × run
matrix, which samples passed per case, errored cases, tokens and cost, the recent runs and the
promotions, and the run's identity. Answers and reasons only when the run recorded them.
Nothing is fetched when the file is opened. With GITHUB_STEP_SUMMARY set, a pass-rate chart and a
line naming the report are appended to the job summary (DIGLINE_REPORT_URL, when set, is linked).

  --suite S        a suite to show (repeatable; default: every suite of the tenant with a run)
  --run KEY        the run to show, or latest (default); a KEY needs exactly one --suite
  --against B      show the run against run B of the same suite instead of the baseline (as
                   digline compare --against: the paired difference, flips, what changed);
                   needs exactly one --suite
  --out FILE       where to write the report (default ${DEFAULT_REPORT_FILE})

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('report', argv, {
      ...PROJECT_OPTIONS,
      suite: { type: 'string', multiple: true },
      run: { type: 'string' },
      against: { type: 'string' },
      out: { type: 'string' },
    })
    if (values.help) return (io.stdout(reportCommand.help), 0)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const data = await reportData(store, {
      tenant: settings.tenant,
      suites: values.suite ?? [],
      run: values.run ?? 'latest',
      ...(values.against === undefined ? {} : { against: values.against }),
    })
    const out = resolve(io.cwd, values.out ?? DEFAULT_REPORT_FILE)
    const html = renderPage(data)
    try {
      mkdirSync(dirname(out), { recursive: true })
      writeFileSync(out, html)
    } catch (error) {
      throw new ReportWriteError(
        `the report could not be written to ${out} (${error instanceof Error ? error.message : String(error)})`,
        'Fix the path or free space, or name another file with `digline report --out FILE`.',
        ['--out'],
      )
    }
    io.stdout(`Wrote the report of ${data.suites.length} suite(s) to ${out} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB); open it in a browser, offline.`)
    const summary = io.env.GITHUB_STEP_SUMMARY
    if (summary !== undefined && summary !== '') {
      const shown = relative(io.env.GITHUB_WORKSPACE ?? io.cwd, out)
      const url = io.env.DIGLINE_REPORT_URL
      appendFileSync(summary, formatReportSummary(data, { file: shown.startsWith('..') ? out : shown, ...(url ? { url } : {}), runPage: workflowRunPage(io.env) }))
    }
    return 0
  },
}
