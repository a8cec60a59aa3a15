import { formatAggregates, formatCaseLines, type SuiteOutcome } from '../../host/index.js'
import { judgeRun } from '../../host/index.js'
import { describeStore, openProject } from '../../host/index.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { resolveRunKey } from '../../host/index.js'
import { printable } from '../../suite/printable-text.js'

export const showCommand: Command = {
  name: 'show',
  help: `Usage: digline show --suite S --run KEY|latest [--json] [--all]

Reads one run document whole and prints it.

  --suite S        the suite (required)
  --run KEY        the run's key, or latest (required)
  --json           the run document itself on stdout
  --all            list every case, not only those that did not pass

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('show', argv, {
      ...PROJECT_OPTIONS,
      suite: { type: 'string' },
      run: { type: 'string' },
      json: { type: 'boolean' },
      all: { type: 'boolean' },
    })
    if (values.help) return (io.stdout(showCommand.help), 0)
    const suite = requireFlag('show', 'suite', values.suite)
    const runArg = requireFlag('show', 'run', values.run)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const key = await resolveRunKey(store, settings.tenant, suite, runArg)
    const doc = await store.readRun(settings.tenant, suite, key)
    if (values.json) {
      // `key` names the run --run resolved to (latest, say); the rest is the document as written.
      io.stdout(JSON.stringify({ key, ...doc }, null, 2))
      return 0
    }
    const outcome = await judgeRun(store, doc, { tenant: settings.tenant, suite, key, location: `run ${key} of suite ${suite} in ${describeStore(settings.storeRoot)}` })
    io.stdout(
      [
        `suite ${doc.suite}  tenant ${doc.tenant}  environment ${doc.environment}`,
        `key ${key}  created_at ${doc.created_at}  config_hash ${doc.config_hash}  git ${doc.git_commit ?? 'none'}`,
        ...(doc.rejudged_from === undefined ? [] : [`replay of ${doc.rejudged_from_suite ?? doc.suite}/${doc.rejudged_from}`]),
        `target ${JSON.stringify(doc.target_config)}${doc.observed.target_model === null ? '' : `  observed ${printable(doc.observed.target_model)}`}`,
        formatAggregates(doc.aggregates),
        doc.aggregates.errored > 0
          ? 'not judged: a case errored'
          : outcome.misses.length === 0
            ? 'thresholds: met'
            : `thresholds: missed (${outcome.misses.map((m) => m.field).join(', ')})`,
        ...baselineLine(outcome, suite, key),
        ...formatCaseLines(
          doc.results
            .filter((r) => values.all || r.verdict !== 'pass')
            .map((r) => ({ case_id: r.case_id, verdict: r.verdict, score: r.score, reason: r.error?.message ?? r.reason })),
          values.all ? Number.MAX_SAFE_INTEGER : 50,
          { suite, key },
        ),
      ].join('\n'),
    )
    return 0
  },
}

/** One line on the baseline, when the suite has one: the verdict `compare` gives, and where to read why. */
function baselineLine(outcome: SuiteOutcome, suite: string, key: string): string[] {
  const c = outcome.comparison
  if (c === undefined) return []
  const why = `\`digline compare --suite ${suite} --run ${key}\` says why`
  if (c.status === 'unreadable') return [`baseline: cannot be read; ${why}`]
  if (c.baseline.key === key) return [`baseline: this run is the baseline`]
  if (c.status === 'not-comparable') return [`baseline ${c.baseline.key}: judged by other rules, so not compared; ${why}`]
  return [c.regressed ? `baseline ${c.baseline.key}: regressed; ${why}` : `baseline ${c.baseline.key}: no regression`]
}
