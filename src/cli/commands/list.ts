import { openStore } from '../../store/open-store.js'
import { percent } from '../../host/format-outcome.js'
import { projectSettings } from '../project-config.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'

export const listCommand: Command = {
  name: 'list',
  summary: 'list the runs of a suite, oldest first',
  help: `Usage: digline list --suite S [--json]

Lists the run documents of suite S, reading only each document's header.
Files that cannot be read are listed with the refusal that names why.

  --suite S   the suite (required)
  --json      one JSON document on stdout

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('list', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help) return io.stdout(listCommand.help), 0
    const suite = requireFlag('list', 'suite', values.suite)
    const settings = await projectSettings(io.cwd, values, io.env)
    const listing = await openStore({ store: settings.storeRoot }).listRuns(settings.tenant, suite)
    if (values.json) {
      io.stdout(JSON.stringify(listing, null, 2))
      return 0
    }
    if (listing.runs.length === 0) {
      io.stdout(`No runs of suite ${suite} in tenant ${settings.tenant} (${settings.storeRoot}).`)
      return 0
    }
    for (const run of listing.runs) {
      if (run.header === undefined) {
        io.stdout(`${run.key ?? '(no readable key)'}  refused: ${run.refusal.name}: ${run.refusal.message.split('\n')[0]}`)
        continue
      }
      const h = run.header
      const rate = run.aggregates === undefined ? '' : `  pass rate ${percent(run.aggregates.pass_rate)}  ${run.aggregates.cases} cases${run.aggregates.errored > 0 ? `, ${run.aggregates.errored} errored` : ''}`
      const replay = h.rejudged_from === undefined ? '' : `  replay of ${h.rejudged_from_suite ?? suite}/${h.rejudged_from}`
      io.stdout(`${run.key}  ${h.environment}  ${h.git_commit?.slice(0, 12) ?? 'no-git'}${rate}${replay}`)
    }
    return 0
  },
}
