import { filedReplay, launchVitest, openProject, planLaunch, replayIntoUndeclared } from '../../host/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'

export const rejudgeCommand: Command = {
  name: 'rejudge',
  summary: 'score the recorded answers of a run again with a suite’s scorers, without calling its target',
  help: `Usage: digline rejudge --suite S --run KEY|latest [--into T]

Scores the answers run KEY of suite S recorded (recordResponses: true) with the scorers and rules
of suite T (default: S), as T's file declares them now, and files the result under T as a replay
(rejudged_from: KEY, rejudged_from_suite: S). No target is called. Launches \`vitest run\` on the
file(s) that declare T (found with \`vitest list\` first), so T's scorers load from its suite file;
no other file takes part, so the exit code is about the replay alone. Cases are matched by id (see
docs/adr/0013-replays.md). A replay is never promotable; a replay of a replay chains.

Refused (64, nothing filed) for a run that recorded no answers, a removed key, a run that cannot
be read, a suite T no file declares, and a T whose samples differ from the run's or that shares
no case with it. Exit code otherwise as \`vitest run\`: 0 holds, 1 missed, 2 not judged.

  --suite S   the suite of the recorded run (required)
  --run KEY   the recorded run, or latest (required)
  --into T    the suite whose scorers judge, and under which the replay is filed (default S)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('rejudge', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, run: { type: 'string' }, into: { type: 'string' } })
    if (values.help) return (io.stdout(rejudgeCommand.help), 0)
    const suite = requireFlag('rejudge', 'suite', values.suite)
    const run = requireFlag('rejudge', 'run', values.run)
    const into = values.into === undefined ? suite : requireFlag('rejudge', 'into', values.into)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const project = { cwd: io.cwd, env: io.env, config: settings.configFile, open: () => Promise.resolve({ tenant: settings.tenant, storeRoot: settings.storeRoot, store }) }
    const launch = await planLaunch(project, { kind: 'rejudge', suite, run, into })
    for (const note of launch.notes) io.stderr(note)
    const code = await launchVitest(io, launch.vitestArgs, launch.env, 'rejudge')

    const { tenant, source, createdAt } = launch.replay!
    const filed = await filedReplay(store, tenant, into, createdAt, source)
    if (filed === undefined) {
      if (code === 64 || code === 2) return code
      throw replayIntoUndeclared(suite, source.key, into)
    }
    io.stdout(`Filed replay ${filed} under suite ${into}: the answers of run ${source.key} (suite ${suite}) judged again by the scorers of ${into}, with no call to the target.`)
    return code
  },
}
