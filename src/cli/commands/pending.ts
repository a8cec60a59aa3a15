import { openProject } from '../../host/index.js'
import { pendingRows } from '../../host/index.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'

export const pendingCommand: Command = {
  name: 'pending',
  help: `Usage: digline pending [--suite S] [--json]

Lists every pending journal of the tenant (or of suite S): the run's key, its legs, how many
cases are journaled and how many errored, and the command that finishes it. A run another
process is still writing (its lease holds) is shown as live, naming that process, with no command:
a resume is refused until it ends (--json carries that refusal). A sharded run also lists its
shards: done (its whole share journaled), running (a writer's lease holds) or missing.

  --suite S   only suite S
  --json      one JSON document on stdout

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('pending', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help) return (io.stdout(pendingCommand.help), 0)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const rows = await pendingRows(store, settings.tenant, values.suite)
    if (values.json) {
      io.stdout(JSON.stringify({ tenant: settings.tenant, pending: rows }, null, 2))
      return 0
    }
    if (rows.length === 0) {
      io.stdout(`Nothing is pending in tenant ${settings.tenant}.`)
      return 0
    }
    for (const r of rows) {
      const state = r.finished
        ? 'finished (its leftover journal is removed by the next run)'
        : r.live !== null
          ? `live: process ${r.live.pid} on host ${r.live.host} is writing it (leg ${r.live.leg}, since ${r.live.since}); a resume is refused while its lease holds`
          : r.resume === null
            ? `cannot be resumed: ${r.refusal?.name ?? 'refused'}`
            : `\`${r.resume}\``
      io.stdout(`${r.suite}  ${r.key}  legs ${r.legs.join(',')}  ${r.journaled} case(s) journaled, ${r.errored} errored  ${state}`)
      for (const s of r.shards ?? []) {
        const finish = s.state === 'missing' ? `  \`digline run --resume ${r.key} --shard ${s.shard}\`` : ''
        io.stdout(`  shard ${s.shard}  ${s.state}  ${s.journaled} of ${s.share} case(s) journaled${finish}`)
      }
    }
    return 0
  },
}
