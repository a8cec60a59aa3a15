import { UsageError } from '../../host/index.js'
import { judgeRun } from '../../host/index.js'
import { formatOutcome } from '../../host/index.js'
import { formatLaunchMarkdown } from '../../host/index.js'
import { exitCodeForStatus } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { describeStore } from '../../host/index.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { resolveRunKey } from '../../host/index.js'
import { assertNotRetired } from '../../host/index.js'
import { compareRunAgainst } from '../../host/index.js'

export const compareCommand: Command = {
  name: 'compare',
  help: `Usage: digline compare --suite S --run KEY|latest [--against KEY|latest] [--json] [--format text|md]

Compares run KEY with the committed baseline of suite S, as vitest run does after each suite:
the aggregates side by side, the paired difference of pass rates over the shared cases with its
95% interval, the change of cost, tokens and latency per case the suite gates on, the cases that
flipped, the flaky cases, and the cases added or removed. Without a baseline the run
is judged by its thresholds alone. Exit 0 holds, 1 regressed or missed a threshold, 2 a case
errored or the baseline cannot be read, 64 refused.

With --against B, run B of the same suite takes the baseline's place: the same pairing over the
cases both runs judged, the same intervals and gates, the same exit codes (1 when run KEY regressed
against B). It says when the two case sets differ and by how many, and what changed between the
two runs (the target's declared config, the model it reported, artifacts and dataset files).

  --suite S        the suite (required)
  --run KEY        the run's key, or latest (required)
  --against B      another run of the suite (its key, or latest) in the baseline's place
  --json           one JSON document on stdout
  --format F       text (default) or md (markdown, as written to GITHUB_STEP_SUMMARY)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('compare', argv, {
      ...PROJECT_OPTIONS,
      suite: { type: 'string' },
      run: { type: 'string' },
      against: { type: 'string' },
      json: { type: 'boolean' },
      format: { type: 'string' },
    })
    if (values.help) return (io.stdout(compareCommand.help), 0)
    const suite = requireFlag('compare', 'suite', values.suite)
    const runArg = requireFlag('compare', 'run', values.run)
    const format = values.format ?? 'text'
    if (format !== 'text' && format !== 'md') throw new UsageError(`digline compare: --format ${format} is not text or md`, 'Run `digline compare --help`.', ['--format'])
    if (values.json && values.format !== undefined) throw new UsageError('digline compare: --json and --format go separately', 'Pass one of them.', ['--format'])
    const { settings, store } = await openProject(io.cwd, values, io.env)
    if (values.against !== undefined) {
      const againstArg = requireFlag('compare', 'against', values.against)
      const c = await compareRunAgainst(store, settings.tenant, suite, runArg, againstArg)
      if (values.json) {
        const { outcome } = c
        io.stdout(
          JSON.stringify(
            {
              suite,
              key: c.key,
              against: c.against,
              status: c.status,
              exit_code: c.exit_code,
              aggregates: outcome.aggregates,
              misses: outcome.misses,
              cases: c.cases,
              comparison: outcome.comparison,
              flipped: c.flipped,
            },
            null,
            2,
          ),
        )
      } else io.stdout(format === 'md' ? formatLaunchMarkdown([c.outcome], c.exit_code) : formatOutcome(c.outcome))
      return c.exit_code
    }
    await assertNotRetired(store, settings.tenant, suite, `compare run ${runArg} of suite ${suite} with its baseline`)
    const key = await resolveRunKey(store, settings.tenant, suite, runArg)
    const document = await store.readRun(settings.tenant, suite, key)
    const location = `run ${key} of suite ${suite} in ${describeStore(settings.storeRoot)}`
    const outcome = await judgeRun(store, document, { tenant: settings.tenant, suite, key, location })
    const exitCode = exitCodeForStatus(outcome.status)
    if (values.json) {
      io.stdout(
        JSON.stringify(
          { suite, key, status: outcome.status, exit_code: exitCode, aggregates: outcome.aggregates, misses: outcome.misses, baseline: outcome.comparison ?? null },
          null,
          2,
        ),
      )
    } else if (format === 'md') {
      io.stdout(formatLaunchMarkdown([outcome], exitCode))
    } else {
      io.stdout(formatOutcome(outcome))
    }
    return exitCode
  },
}
