import { resolve } from 'node:path'
import { ResumedSuiteNotDeclaredError, UsageError } from '../../host/index.js'
import { exitCodesLine } from '../../exit-codes.js'
import { encodeDirective } from '../../host/index.js'
import { planMerge } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { collectSuiteManifest } from '../../host/index.js'
import type { Command } from '../command.js'
import { launchVitest } from '../../host/index.js'
import { parseCommand } from '../parse.js'
import { vitestBin } from '../../host/index.js'

export const mergeCommand: Command = {
  name: 'merge',
  summary: "file a sharded run from its shards' store directories (file store, CI artifacts)",
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
    const dirs = positionals.map((dir) => resolve(io.cwd, dir))
    const runs = await planMerge(settings.tenant, dirs, store)
    const env = encodeDirective(io.env, { kind: 'merge', runs: Object.fromEntries(runs.map((r) => [r.suite, { key: r.key, stores: r.stores }])) })
    const vitestArgs = values.config === undefined ? [] : ['--config', values.config]
    const declared = new Set((await collectSuiteManifest(vitestBin(io.cwd), io.cwd, env, undefined, vitestArgs)).filter((e) => e.tenant === settings.tenant).map((e) => e.suite))
    const undeclared = runs.find((r) => !declared.has(r.suite))
    if (undeclared !== undefined) {
      throw new ResumedSuiteNotDeclaredError(
        `digline merge was refused: run ${undeclared.key} is of suite ${undeclared.suite}, which no suite file of this Vitest project declares (tenant ${settings.tenant}), so it could not be filed; nothing was filed`,
        `Run \`digline merge\` in the project (and at the commit) the shards ran, so that suite ${undeclared.suite} is declared.`,
        ['DIR'],
      )
    }
    for (const r of runs) io.stderr(`digline: merging run ${r.key} of suite ${r.suite} from ${r.count} shard(s)`)
    return launchVitest(io, vitestArgs, env, 'merge')
  },
}
