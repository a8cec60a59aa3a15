import { runsToExport, writeExport } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'

export const DEFAULT_EXPORT_DIR = 'digline-export'

export const exportCommand: Command = {
  name: 'export',
  help: `Usage: digline export --suite S [--run KEY|latest] [--out DIR]

Writes run KEY of suite S (without --run: every readable run of S) to DIR/S/KEY.json, each the
bytes the store holds (what \`digline show --json\` prints, less the key it adds). Files move runs
between stores: \`digline import DIR/S/*.json\` files them into the store of another project or the
team store. Only run documents move, not the baseline or the register (docs/adr/0047). A retired
suite's runs can still be exported. A file already there with the same bytes is left as it is; one
with other content refuses the export (64) before anything is written. Documents of S that cannot be
read are named on stderr and not exported.

  --suite S        the suite (required)
  --run KEY        one run, or latest (default: every readable run of the suite)
  --out DIR        where to write (default ${DEFAULT_EXPORT_DIR}, relative to the current directory)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('export', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, run: { type: 'string' }, out: { type: 'string' } })
    if (values.help) return (io.stdout(exportCommand.help), 0)
    const suite = requireFlag('export', 'suite', values.suite)
    const run = values.run === undefined ? undefined : requireFlag('export', 'run', values.run)
    const out = values.out === undefined ? DEFAULT_EXPORT_DIR : requireFlag('export', 'out', values.out)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const selected = await runsToExport(store, settings.tenant, suite, run)
    for (const r of selected.refused)
      io.stderr(`digline export: ${r.key ?? 'a document'} of suite ${suite} was not exported: ${r.refusal.name}: ${r.refusal.message.split('\n')[0]}`)
    const files = await writeExport(out, io.cwd, selected.runs)
    for (const file of files.written) io.stdout(`wrote ${file}`)
    for (const file of files.unchanged) io.stdout(`unchanged ${file} (already these bytes)`)
    io.stdout(
      `Exported ${selected.runs.length} run(s) of suite ${suite} (tenant ${settings.tenant}): ${files.written.length} written, ${files.unchanged.length} already there.` +
        (selected.runs.length === 0 ? '' : ` Import them elsewhere with: digline import ${out}/${suite}/*.json`),
    )
    return 0
  },
}
