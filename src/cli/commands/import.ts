import { UsageError } from '../../host/index.js'
import { importRuns } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'

export const importCommand: Command = {
  name: 'import',
  help: `Usage: digline import FILE…

Files each run document (as \`digline export\` wrote it) into the store this project is configured
for (the file store or the team store), under its own suite and key. Every file is checked before
the first one is filed; refused (64, nothing imported): a file that is not a run document byte for
byte as digline writes it (UnreadableRunError, UnknownSchemaVersionError), a run of another tenant
(TenantMismatchError), a key a delete removed, or a replay of one (RunRemovedError), a key filed
with other content (ImportConflictError), a retired suite (SuiteRetiredError), a key whose run is
being written by a live process. A run already filed with the same bytes is left as it is, and
said so. Baselines and the register do not move: promote an imported run with digline promote.

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values, positionals } = parseCommand('import', argv, PROJECT_OPTIONS, true)
    if (values.help) return (io.stdout(importCommand.help), 0)
    if (positionals.length === 0) throw new UsageError('digline import: no file was given', 'digline import DIR/SUITE/*.json (files written by digline export)')
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const imported = await importRuns(store, settings.tenant, positionals, io.cwd)
    for (const r of imported) {
      const said = r.outcome === 'filed' ? 'filed' : r.outcome === 'already' ? 'already filed with these very bytes; left as it is' : 'same document as an earlier file; left out'
      io.stdout(`${r.suite}/${r.key}  ${said}  (${r.file})`)
    }
    const filed = imported.filter((r) => r.outcome === 'filed').length
    io.stdout(`Imported ${filed} of ${imported.length} run document(s) into tenant ${settings.tenant}; ${imported.length - filed} were already there.`)
    return 0
  },
}
