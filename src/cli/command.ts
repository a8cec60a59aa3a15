import type { ExitCode } from '../errors/base.js'

export interface CliIo {
  cwd: string
  env: NodeJS.ProcessEnv
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export interface Command {
  name: string
  help: string
  run(argv: string[], io: CliIo): Promise<ExitCode>
}

/** A command as the table lists it: its name and summary, and its module, imported only when it runs. */
export interface CommandEntry {
  name: string
  summary: string
  load: () => Promise<Command>
}

export const PROJECT_HELP = `Project options (every command that reads the store):
  --config FILE   the Vitest config whose digline() options name the tenant and store
                  (default: vitest.config.* or vite.config.* in the current directory)
  --tenant T      override the tenant
  --store DIR     override the store directory (default .digline under the Vitest root)`
