import type { ExitCode } from '../errors/base.js'

export interface CliIo {
  cwd: string
  env: NodeJS.ProcessEnv
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export interface Command {
  name: string
  summary: string
  help: string
  run(argv: string[], io: CliIo): Promise<ExitCode>
}

export const PROJECT_HELP = `Project options (every command that reads the store):
  --config FILE   the Vitest config whose digline() options name the tenant and store
                  (default: vitest.config.* or vite.config.* in the current directory)
  --tenant T      override the tenant
  --store DIR     override the store directory (default .digline under the Vitest root)`
