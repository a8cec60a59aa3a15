import { promoteRun } from '../../host/index.js'
import { percent } from '../../host/index.js'
import { collectNamedSuites } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { vitestBin } from '../../host/index.js'
import { resolveRunKey } from '../../host/index.js'

export const promoteCommand: Command = {
  name: 'promote',
  help: `Usage: digline promote --suite S --run KEY|latest [--replacing OLD]

Writes .digline/<tenant>/baselines/S.json (the run without its answers, plus promoted_at and
promoted_from) and appends one line to .digline/<tenant>/register.jsonl. Commit both: the
promotion is reviewed as a diff. Refused (64, nothing written) for a replay, a run with an
errored case, a run whose config_hash is not the suite's current one, a suite no file declares,
and, when the suite has a baseline, a --replacing that is missing or not the baseline's key
(see docs/adr/0009-promotion-conditions.md).

  --suite S         the suite (required)
  --run KEY         the run to promote, or latest (required)
  --replacing OLD   the key of the baseline it replaces (required when there is one)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('promote', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, run: { type: 'string' }, replacing: { type: 'string' } })
    if (values.help) return (io.stdout(promoteCommand.help), 0)
    const suite = requireFlag('promote', 'suite', values.suite)
    const runArg = requireFlag('promote', 'run', values.run)
    if (values.replacing === '') requireFlag('promote', 'replacing', values.replacing)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const key = await resolveRunKey(store, settings.tenant, suite, runArg)
    const promotion = await promoteRun({
      store,
      tenant: settings.tenant,
      suite,
      key,
      replacing: values.replacing,
      currentConfigHash: async () => {
        const named = (entries: readonly { suite: string }[]) => entries.some((entry) => entry.suite === suite)
        const declared = await collectNamedSuites([suite], named, vitestBin(io.cwd), io.cwd, io.env, settings.configFile)
        return declared.find((entry) => entry.suite === suite)?.config_hash
      },
    })
    const files = promotion.committedByGit
      ? `Commit ${promotion.baselineLocation} and ${promotion.registerLocation}.`
      : `The team store now shares ${promotion.baselineLocation} and ${promotion.registerLocation}: there is nothing to commit.`
    if (promotion.outcome === 'already') {
      io.stdout(`Run ${key} is already the baseline of suite ${suite}, and the register says so: nothing was written.`)
    } else if (promotion.outcome === 'completed') {
      io.stdout(`Run ${key} was already the baseline of suite ${suite}, but the register had no line for it (an interrupted promotion): the line was appended.\n${files}`)
    } else {
      const replaced = promotion.replaced === null ? '' : `, replacing ${promotion.replaced}`
      const rate = promotion.entry?.pass_rate
      io.stdout(`Promoted run ${key} to the baseline of suite ${suite}${replaced} (pass rate ${percent(rate)}).\n` + files)
    }
    return 0
  },
}
