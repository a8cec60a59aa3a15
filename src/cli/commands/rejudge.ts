import { filedReplay, formatJudgeNoise, judgeNoiseOfReplays, launchVitest, openProject, planLaunch, replayIntoUndeclared, UsageError } from '../../host/index.js'
import type { ExitCode } from '../../errors/base.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'

const MAX_REPEAT = 20

export const rejudgeCommand: Command = {
  name: 'rejudge',
  help: `Usage: digline rejudge --suite S --run KEY|latest [--into T] [--repeat K [--max-judge-share X]]

Scores the answers run KEY of suite S recorded (recordResponses: true) with the scorers and rules
of suite T (default: S), as T's file declares them now, and files the result under T as a replay
(rejudged_from: KEY, rejudged_from_suite: S). No target is called. Launches \`vitest run\` on the
file(s) that declare T (found with \`vitest list\` first), so T's scorers load from its suite file;
no other file takes part, so the exit code is about the replay alone. Cases are matched by id (see
docs/adr/0013-replays.md). A replay is never promotable; a replay of a replay chains.

With --repeat K (2 to ${MAX_REPEAT}) the answers are judged K times, one replay each, and digline then
prints the judge noise: the variance of the scores split into the judge's part and the target's
(samples ≥ 2 are needed for the target's), the cases whose verdict the judge itself flips, and a
warning when the judge's share is above --max-judge-share (default 0.5). See docs/scorers.md.

Refused (64, nothing filed) for a run that recorded no answers, a removed key, a run that cannot
be read, a suite T no file declares, and a T whose samples differ from the run's or that shares
no case with it. Exit code otherwise as \`vitest run\` (the worst of the K replays): 0 holds,
1 missed, 2 not judged.

  --suite S            the suite of the recorded run (required)
  --run KEY            the recorded run, or latest (required)
  --into T             the suite whose scorers judge, and under which the replay is filed (default S)
  --repeat K           judge each answer K times and print the judge noise
  --max-judge-share X  warn when the judge's share of the noise is above X (0..1, default 0.5)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('rejudge', argv, {
      ...PROJECT_OPTIONS,
      suite: { type: 'string' },
      run: { type: 'string' },
      into: { type: 'string' },
      repeat: { type: 'string' },
      'max-judge-share': { type: 'string' },
    })
    if (values.help) return (io.stdout(rejudgeCommand.help), 0)
    const suite = requireFlag('rejudge', 'suite', values.suite)
    const run = requireFlag('rejudge', 'run', values.run)
    const into = values.into === undefined ? suite : requireFlag('rejudge', 'into', values.into)
    const repeat = values.repeat === undefined ? 1 : Number(values.repeat)
    if (values.repeat !== undefined && (!Number.isInteger(repeat) || repeat < 2 || repeat > MAX_REPEAT))
      throw new UsageError(`digline rejudge: --repeat ${JSON.stringify(values.repeat)} is not a count from 2 to ${MAX_REPEAT}`, 'Run `digline rejudge --help`.', ['--repeat'])
    const maxShare = values['max-judge-share'] === undefined ? 0.5 : Number(values['max-judge-share'])
    if (!Number.isFinite(maxShare) || maxShare < 0 || maxShare > 1)
      throw new UsageError(`digline rejudge: --max-judge-share ${JSON.stringify(values['max-judge-share'])} is not a share in 0..1`, 'Run `digline rejudge --help`.', [
        '--max-judge-share',
      ])
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const project = { cwd: io.cwd, env: io.env, config: settings.configFile, open: () => Promise.resolve({ tenant: settings.tenant, storeRoot: settings.storeRoot, store }) }
    const filedKeys: string[] = []
    let worst: ExitCode = 0
    let tenant = settings.tenant
    for (let round = 0; round < repeat; round++) {
      const launch = await planLaunch(project, { kind: 'rejudge', suite, run, into })
      for (const note of launch.notes) io.stderr(repeat > 1 ? `${note} (judgement ${round + 1} of ${repeat})` : note)
      const code = await launchVitest(io, launch.vitestArgs, launch.env, 'rejudge')
      const replay = launch.replay!
      tenant = replay.tenant
      const filed = await filedReplay(store, replay.tenant, into, replay.createdAt, replay.source)
      if (filed === undefined) {
        if (code === 64 || code === 2) return code
        throw replayIntoUndeclared(suite, replay.source.key, into)
      }
      io.stdout(
        `Filed replay ${filed} under suite ${into}: the answers of run ${replay.source.key} (suite ${suite}) judged again by the scorers of ${into}, with no call to the target.`,
      )
      filedKeys.push(filed)
      if (code > worst) worst = code
    }
    if (filedKeys.length > 1) for (const line of formatJudgeNoise(await judgeNoiseOfReplays(store, tenant, into, filedKeys, maxShare))) io.stdout(line)
    return worst
  },
}
