import { spawn } from 'node:child_process'
import { isKey } from '../../suite/keys.js'
import { openStore } from '../../store/open-store.js'
import { chooseResume } from '../../host/choose-resume.js'
import { exitCodeForChild, exitCodesLine, type ExitCode } from '../../exit-codes.js'
import { projectSettings } from '../project-config.js'
import { vitestBin } from '../vitest-bin.js'
import { UsageError } from '../../errors.js'
import type { Command } from '../command.js'

interface RunArgs {
  resume: boolean
  key: string | undefined
  keepErrors: boolean
  suite: string | undefined
  config: string | undefined
  tenant: string | undefined
  store: string | undefined
  vitest: string[]
}

/** digline's own flags are taken out; everything else goes to vitest as it is. */
function splitArgs(argv: string[]): RunArgs {
  const out: RunArgs = { resume: false, key: undefined, keepErrors: false, suite: undefined, config: undefined, tenant: undefined, store: undefined, vitest: [] }
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
    } else if (arg === '--keep-errors') out.keepErrors = true
    else if (/^--(suite|tenant|store)=/.test(arg)) {
      const [flag, v] = [arg.slice(2, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] as ['suite' | 'tenant' | 'store', string]
      out[flag] = v
    } else if (arg.startsWith('--config=')) {
      out.config = arg.slice('--config='.length)
      out.vitest.push('--config', out.config)
    }
    else if (arg === '--suite') out.suite = value(i++, '--suite')
    else if (arg === '--tenant') out.tenant = value(i++, '--tenant')
    else if (arg === '--store') out.store = value(i++, '--store')
    else if (arg === '--config') {
      out.config = value(i++, '--config')
      out.vitest.push('--config', out.config)
    } else out.vitest.push(arg)
  }
  if (out.tenant !== undefined || out.store !== undefined) {
    // The workers write where the digline() options say; a resume that read journals elsewhere would finish nothing.
    throw new UsageError('digline run: --tenant and --store are not taken by run', 'Set tenant and store in the digline() plugin options of the Vitest config; `digline run --resume` reads journals where the plugin writes them.', [out.tenant !== undefined ? '--tenant' : '--store'])
  }
  if (!out.resume && (out.keepErrors || out.key !== undefined)) throw new UsageError('digline run: --keep-errors goes with --resume', 'Run `digline run --resume [KEY] --keep-errors`.', ['--keep-errors'])
  return out
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run the suites with Vitest, or finish a killed run with --resume',
  help: `Usage: digline run [--resume [KEY]] [--keep-errors] [--suite S] [vitest arguments…]

Launches \`vitest run\` in the current directory with the vitest arguments given (file filters,
-t patterns, --config…). The digline() plugin does the rest; the exit code is vitest run's:
${exitCodesLine()} (docs/cli.md#exit-codes).

  --resume [KEY]   finish a run from its journal instead of starting a fresh one: the run KEY,
                   or without KEY the newest pending run of each suite (others are named).
                   Cases already judged are not called again; the run keeps its created_at and key.
                   Refused (64) when nothing is pending or the suite changed since the run began.
  --keep-errors    with --resume: keep cases that errored instead of calling them again
  --suite S        with --resume: only suite S

The tenant and store are the digline() plugin options of the Vitest config (--config FILE picks
another config, for Vitest and for digline alike).`,
  async run(argv, io) {
    if (argv.includes('--help') || argv.includes('-h')) return io.stdout(runCommand.help), 0
    const args = splitArgs(argv)
    const env: NodeJS.ProcessEnv = { ...io.env }
    delete env.DIGLINE_RESUME
    delete env.DIGLINE_KEEP_ERRORS
    delete env.DIGLINE_REJUDGE
    if (args.resume) {
      const settings = await projectSettings(io.cwd, args, io.env)
      const store = openStore({ store: settings.storeRoot })
      const choice = await chooseResume(store, settings.tenant, { key: args.key, suite: args.suite })
      for (const p of choice.passedOver) io.stderr(`digline: passed over pending run ${p.key} of suite ${p.suite} (resume it with \`digline run --resume ${p.key}\`)`)
      for (const [suite, key] of Object.entries(choice.chosen)) io.stderr(`digline: resuming run ${key} of suite ${suite}`)
      env.DIGLINE_RESUME = JSON.stringify(choice.chosen)
      if (args.keepErrors) env.DIGLINE_KEEP_ERRORS = '1'
    } else if (args.suite !== undefined) {
      throw new UsageError('digline run: --suite goes with --resume', 'Use vitest file filters or -t to select suites for a fresh run.', ['--suite'])
    }
    const child = spawn(process.execPath, [vitestBin(io.cwd), 'run', ...args.vitest], { cwd: io.cwd, env, stdio: 'inherit' })
    return new Promise<ExitCode>((resolvePromise, reject) => {
      child.on('error', reject)
      child.on('exit', (code, signal) => {
        if (signal !== null) io.stderr(`digline run: vitest was ended by ${signal}`)
        resolvePromise(exitCodeForChild(code, signal))
      })
    })
  },
}
