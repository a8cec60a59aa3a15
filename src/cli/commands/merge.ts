import { resolve } from 'node:path'
import { exitCodesLine } from '../../exit-codes.js'
import { launchVitest, openProject, planLaunch, UsageError } from '../../host/index.js'
import type { Command } from '../command.js'
import { parseCommand } from '../parse.js'

const STORE_URL = /^[a-z][a-z0-9+.-]*:\/\//i

export const mergeCommand: Command = {
  name: 'merge',
  help: `Usage: digline merge DIR… [--config FILE]

Each DIR is the store directory one shard of a sharded run wrote (its .digline, as the CI
artifact holds it). The shards' journals are checked against each other and against the suites
as they are declared now, then every sharded run they hold is filed into this project's store
(the digline() options), exactly as an unsharded run with the same created_at would have been,
and the comparison is printed. Nothing is called. The exit code is vitest run's:
${exitCodesLine()} (docs/cli.md#exit-codes).

Refused (64, nothing filed): a shard that no DIR holds or that was stopped before it finished, a
shard held by two DIRs, shards whose journal headers differ (config, cases, target, artifacts,
digline version, shard count…), a case journaled by two shards, a removed key.

  --config FILE   the Vitest config whose digline() options name the tenant and store`,
  async run(argv, io) {
    const { values, positionals } = parseCommand('merge', argv, { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true)
    if (values.help) return (io.stdout(mergeCommand.help), 0)
    if (positionals.length === 0)
      throw new UsageError('digline merge: give the store directory of every shard', 'Run `digline merge shard-1/.digline shard-2/.digline …`.', ['DIR'])
    const { settings, store } = await openProject(io.cwd, values, io.env)
    // A shard's store is a directory (its CI artifact), or the URL of a store that reaches it.
    const stores = positionals.map((dir) => (STORE_URL.test(dir) ? dir : resolve(io.cwd, dir)))
    const project = { cwd: io.cwd, env: io.env, config: values.config, open: () => Promise.resolve({ tenant: settings.tenant, storeRoot: settings.storeRoot, store }) }
    const launch = await planLaunch(project, { kind: 'merge', stores })
    for (const note of launch.notes) io.stderr(note)
    return launchVitest(io, launch.vitestArgs, launch.env, 'merge')
  },
}
