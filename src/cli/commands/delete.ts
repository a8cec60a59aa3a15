import { UsageError } from '../../host/index.js'
import { describeRemoval, removalRecordsWhere } from '../../host/index.js'
import { deleteRun, localCacheBeside } from '../../host/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { openProject } from '../../host/index.js'

export const deleteCommand: Command = {
  name: 'delete',
  help: `Usage: digline delete --suite S --run KEY

Removes run KEY of suite S from .digline/<tenant>/runs/: its journal legs and its document, and
every replay chained to it through rejudged_from in any suite of the tenant, leaves first. Before
removing anything it writes a removal record per run under .digline/<tenant>/removed/, so no run,
resume, promotion or rejudge files that key again. Interrupted, the same command finishes it.

There is no confirmation, no --force and no \`latest\`: the key is written out. Refused (64, nothing
changed) for the run the suite's baseline was promoted from (promote another first), a baseline
that cannot be read, a file under KEY that is not run KEY, a runs directory that cannot be listed,
a path out of the store, and a journal leg held by a live process on this host. Never touched:
baselines, register.jsonl, name-table/. A delete is not an erasure: see docs/delete.md.
Exit 0 whether something or nothing was removed, said in words.

  --suite S   the suite (required)
  --run KEY   the run's key (required; \`latest\` is refused)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('delete', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, run: { type: 'string' } })
    if (values.help) return (io.stdout(deleteCommand.help), 0)
    const suite = requireFlag('delete', 'suite', values.suite)
    const key = requireFlag('delete', 'run', values.run)
    if (key === 'latest') {
      throw new UsageError(
        'digline delete: --run latest is refused: latest names another run each time the command is repeated, and a delete must be repeatable on the key it started from',
        `digline list --suite ${suite} (to see the keys), then digline delete --suite ${suite} --run KEY`,
        ['--run'],
      )
    }
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const asked = { tenant: settings.tenant, suite, key }
    const { removal, stillFiled } = await deleteRun(store, settings.tenant, suite, key, await localCacheBeside(settings.storeRoot, settings.root))
    io.stdout(describeRemoval(removal, asked, stillFiled, removalRecordsWhere(settings.storeRoot, settings.tenant)).join('\n'))
    return 0
  },
}
