import { isKey } from '../../suite/keys.js'
import { TAGS_ENV } from '../../suite/slice.js'
import { CACHE_ENV, decodeShard, launchVitest, openProject, OVER_BUDGET_ENV, parseShard, planLaunch, UsageError, type LaunchProject } from '../../host/index.js'
import { exitCodesLine } from '../../exit-codes.js'
import type { Command } from '../command.js'

interface RunArgs {
  resume: boolean
  key: string | undefined
  keepErrors: boolean
  overBudget: boolean
  noCache: boolean
  suite: string | undefined
  config: string | undefined
  tenant: string | undefined
  store: string | undefined
  shard: string | undefined
  /** --tag T (repeatable): run the slice of each suite whose cases carry any of these tags. */
  tags: string[]
  vitest: string[]
}

/** digline's own flags are taken out; everything else goes to vitest as it is. */
function splitArgs(argv: string[]): RunArgs {
  const out: RunArgs = {
    resume: false,
    key: undefined,
    keepErrors: false,
    overBudget: false,
    noCache: false,
    suite: undefined,
    config: undefined,
    tenant: undefined,
    store: undefined,
    shard: undefined,
    tags: [],
    vitest: [],
  }
  const value = (i: number, flag: string) => {
    const v = argv[i + 1]
    if (v === undefined || v.startsWith('-')) throw new UsageError(`digline run: ${flag} needs a value`, 'Run `digline run --help`.', [flag])
    return v
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--resume') {
      out.resume = true
      const next = argv[i + 1]
      if (next !== undefined && isKey(next)) out.key = argv[++i]
    } else if (arg.startsWith('--resume=')) {
      out.resume = true
      out.key = arg.slice('--resume='.length)
    } else if (arg === '--keep-errors') {
      out.keepErrors = true
      // `--resume --keep-errors KEY`: the key may follow the flag that came after --resume
      const next = argv[i + 1]
      if (out.resume && out.key === undefined && next !== undefined && isKey(next)) out.key = argv[++i]
    } else if (arg === '--over-budget') out.overBudget = true
    else if (arg === '--no-cache') out.noCache = true
    else if (/^--(suite|tenant|store|shard)=/.test(arg)) {
      const [flag, v] = [arg.slice(2, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] as ['suite' | 'tenant' | 'store' | 'shard', string]
      out[flag] = v
    } else if (arg.startsWith('--config=')) {
      out.config = arg.slice('--config='.length)
      out.vitest.push('--config', out.config)
    } else if (arg === '--suite') out.suite = value(i++, '--suite')
    else if (arg === '--tenant') out.tenant = value(i++, '--tenant')
    else if (arg === '--store') out.store = value(i++, '--store')
    else if (arg === '--shard') out.shard = value(i++, '--shard')
    else if (arg === '--tag') out.tags.push(value(i++, '--tag'))
    else if (arg.startsWith('--tag=')) out.tags.push(arg.slice('--tag='.length))
    else if (arg === '--config') {
      out.config = value(i++, '--config')
      out.vitest.push('--config', out.config)
    } else out.vitest.push(arg)
  }
  if (out.tenant !== undefined || out.store !== undefined) {
    // The workers write where the digline() options say; a resume that read journals elsewhere would finish nothing.
    throw new UsageError(
      'digline run: --tenant and --store are not taken by run',
      'Set tenant and store in the digline() plugin options of the Vitest config; `digline run --resume` reads journals where the plugin writes them.',
      [out.tenant !== undefined ? '--tenant' : '--store'],
    )
  }
  if (out.resume && out.key === undefined) {
    const i = out.vitest.findIndex((a) => isKey(a))
    if (i >= 0) out.key = out.vitest.splice(i, 1)[0]
  }
  if (!out.resume && (out.keepErrors || out.key !== undefined))
    throw new UsageError('digline run: --keep-errors goes with --resume', 'Run `digline run --resume [KEY] --keep-errors`.', ['--keep-errors'])
  return out
}

export const runCommand: Command = {
  name: 'run',
  help: `Usage: digline run [--resume [KEY]] [--keep-errors] [--suite S] [--tag T…] [--shard i/N] [--over-budget] [--no-cache] [vitest arguments…]

Launches \`vitest run\` in the current directory with the vitest arguments given (file filters,
-t patterns, --config…). The digline() plugin does the rest; the exit code is vitest run's:
${exitCodesLine()} (docs/cli.md#exit-codes).

  --resume [KEY]   finish a run from its journal instead of starting a fresh one: the run KEY,
                   or without KEY the newest pending run of each suite (others are named).
                   Cases already judged are not called again; the run keeps its created_at and key.
                   Refused (64) when nothing is pending or the suite changed since the run began.
  --keep-errors    with --resume: keep cases that errored instead of calling them again
  --suite S        only suite S: vitest runs the files that declare it (found with
                   \`vitest list\`), and their other suites are skipped; with --resume: only
                   the pending run of suite S
  --tag T          run a slice: only the cases tagged T (repeat --tag for any of several
                   tags; as DIGLINE_TAGS=T1,T2). Each suite's slice is filed as its own run,
                   marked as a slice, billed for its cases only and never promoted; a suite
                   with no case tagged T is skipped (no suite at all: refused, 64).
                   A resumed slice needs the same --tag.
  --shard i/N      run shard i of N: every suite file, but only this shard's share of each
                   suite's cases (as DIGLINE_SHARD=i/N). Every shard needs the same
                   DIGLINE_CREATED_AT; the shard that finishes last files the run (docs/ci.md).
                   With --resume KEY: finish that shard of a killed sharded run.
  --over-budget    run a suite whose announced bill already exceeds its budget (refused
                   otherwise, 64); the run still stops when it reaches the budget (exit 2),
                   and \`digline run --resume\` finishes it (sets DIGLINE_OVER_BUDGET=1)
  --no-cache       ask the target for every answer: the response cache is neither read nor
                   written (sets DIGLINE_CACHE=0); a run that used cached answers is never promoted

The tenant and store are the digline() plugin options of the Vitest config (--config FILE picks
another config, for Vitest and for digline alike).`,
  async run(argv, io) {
    if (argv.includes('--help') || argv.includes('-h')) return (io.stdout(runCommand.help), 0)
    const args = splitArgs(argv)
    const shard = args.shard === undefined ? decodeShard(io.env) : parseShard(args.shard, '--shard')
    // --config is among the vitest arguments, so the launch passes it on as it was given.
    const project: LaunchProject = {
      cwd: io.cwd,
      env: io.env,
      config: undefined,
      async open() {
        const { settings, store } = await openProject(io.cwd, args, io.env)
        return { tenant: settings.tenant, storeRoot: settings.storeRoot, store }
      },
    }
    const narrowing = { vitestArgs: args.vitest, ...(shard === undefined ? {} : { shard }) }
    const launch = await planLaunch(
      project,
      args.resume ? { ...narrowing, kind: 'resume', key: args.key, suite: args.suite, keepErrors: args.keepErrors } : { ...narrowing, kind: 'fresh', suite: args.suite },
    )
    for (const note of launch.notes) io.stderr(note)
    const env = { ...launch.env }
    if (args.overBudget) env[OVER_BUDGET_ENV] = '1'
    if (args.noCache) env[CACHE_ENV] = '0'
    if (args.tags.length > 0) env[TAGS_ENV] = args.tags.join(',')
    return launchVitest(io, launch.vitestArgs, env, 'run')
  },
}
