import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { UsageError, type ExitCode } from '../../errors.js'
import type { Command } from '../command.js'

function vitestBin(cwd: string): string {
  for (const base of [resolve(cwd, 'package.json'), import.meta.url]) {
    try {
      const pkg = createRequire(base).resolve('vitest/package.json')
      return join(dirname(pkg), 'vitest.mjs')
    } catch {
      // try the next place
    }
  }
  throw new UsageError('digline run: vitest is not installed here', 'Run `npm install -D vitest`, then `digline run` again.')
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run the suites with Vitest (same result and exit code as `vitest run`)',
  help: `Usage: digline run [vitest arguments…]

Launches \`vitest run\` in the current directory with the arguments given (file filters,
-t patterns, --config…). The digline() plugin in the Vitest config does the rest; the exit
code is the same as vitest run's: 0 holds, 1 missed, 2 not judged, 64 refused.`,
  async run(argv, io) {
    if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) return io.stdout(runCommand.help), 0
    const child = spawn(process.execPath, [vitestBin(io.cwd), 'run', ...argv], { cwd: io.cwd, env: io.env, stdio: 'inherit' })
    return new Promise<ExitCode>((resolvePromise, reject) => {
      child.on('error', reject)
      child.on('exit', (code, signal) => {
        if (signal !== null) io.stderr(`digline run: vitest was ended by ${signal}`)
        resolvePromise(code === 0 || code === 1 || code === 2 || code === 64 ? code : 2)
      })
    })
  },
}
