import { describeRetirement, retireSuite } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'

export const retireCommand: Command = {
  name: 'retire',
  help: `Usage: digline retire --suite S [--json]

Retires suite S of the tenant: a soft delete of the suite's definition (docs/adr/0045). Afterwards
\`digline list\` leaves it out, and a new run of it (vitest run, digline run, a resume), a re-judge
into it, \`digline compare\`, \`digline promote\` and \`digline import\` of its runs are refused (64),
naming when it was retired. Kept as they were: its runs, its baseline, its register lines and its
removal records; \`digline list --retired\` shows it, \`digline show\` and \`digline export\` read its
runs, and \`digline delete\` still removes one of its runs. Retiring it again changes nothing and
says when it was retired. There is no command that brings a retired suite back: declare the suite
under a new name to measure it again.

Refused (64, nothing written) while a journal of the suite is held by a live process on this host.

  --suite S   the suite (required)
  --json      one JSON document on stdout

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('retire', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help) return (io.stdout(retireCommand.help), 0)
    const suite = requireFlag('retire', 'suite', values.suite)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const retired = await retireSuite(store, settings.tenant, suite)
    if (values.json) {
      const { tenant, retirement, already, runs, baseline, baselineRefusal, pending } = retired
      const refusal = baselineRefusal === undefined ? {} : { baseline_refusal: baselineRefusal }
      io.stdout(JSON.stringify({ tenant, suite, retired_at: retirement.retired_at, already_retired: already, runs, baseline, ...refusal, pending }, null, 2))
    } else {
      io.stdout(describeRetirement(retired).join('\n'))
    }
    return 0
  },
}
