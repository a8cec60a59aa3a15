import { relative } from 'node:path'
import { SuiteNotDeclaredError } from '../../host/index.js'
import { collectSuiteManifest } from '../../host/index.js'
import { vitestBin } from '../../host/index.js'
import { filedReplay, rejudgeSource } from '../../host/index.js'
import { encodeDirective } from '../../host/index.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { createdAtNow } from '../../suite/keys.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { launchVitest } from '../../host/index.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { openProject } from '../../host/index.js'
import { assertNotRetired } from '../../host/index.js'

function notDeclared(suite: string, key: string, into: string): SuiteNotDeclaredError {
  return new SuiteNotDeclaredError(
    `refused to re-judge run ${key} of suite ${suite} into suite ${into}: no suite file declares suite ${into} in this Vitest project, so nothing was judged and nothing was filed`,
    `vitest list (to see the suites declared), then digline rejudge --suite ${suite} --run ${key} --into T`,
    ['--into'],
  )
}

function withoutDirectives(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = encodeDirective(env, { kind: 'fresh' })
  delete clean.DIGLINE_CREATED_AT
  return clean
}

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
    const runArg = requireFlag('rejudge', 'run', values.run)
    const into = values.into === undefined ? suite : requireFlag('rejudge', 'into', values.into)
    assertSafeSegment('suite', suite)
    assertSafeSegment('suite', into)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const { tenant } = settings
    const key = await rejudgeSource(store, tenant, suite, runArg)
    await assertNotRetired(store, tenant, into, `re-judge run ${key} of suite ${suite} into suite ${into}`)

    // Only the files that declare T take part: another file's refusal must not be read as this replay's.
    const declaring = (await collectSuiteManifest(vitestBin(io.cwd), io.cwd, withoutDirectives(io.env), settings.configFile)).filter((e) => e.suite === into && e.tenant === tenant)
    if (declaring.length === 0) throw notDeclared(suite, key, into)
    const files = [...new Set(declaring.map((e) => e.file).filter((f): f is string => f !== undefined))]

    const createdAt = createdAtNow()
    const env = encodeDirective(withoutDirectives(io.env), { kind: 'rejudge', value: { into, suite, key, created_at: createdAt, tenant, store: settings.storeRoot } })
    io.stderr(`digline: re-judging run ${key} of suite ${suite} with the scorers of suite ${into}`)
    const code = await launchVitest(
      io,
      [...(settings.configFile === undefined ? [] : ['--config', settings.configFile]), ...files.map((f) => relative(io.cwd, f) || f)],
      env,
      'rejudge',
    )

    const filed = await filedReplay(store, tenant, into, createdAt, { suite, key })
    if (filed === undefined) {
      if (code === 64 || code === 2) return code
      throw notDeclared(suite, key, into)
    }
    io.stdout(`Filed replay ${filed} under suite ${into}: the answers of run ${key} (suite ${suite}) judged again by the scorers of ${into}, with no call to the target.`)
    return code
  },
}
