// `digline mcp`: the CLI parses the project options and hands the process's stdio to the MCP front
// end's own bin (src/mcp/bin.ts): front ends never import each other (docs/adr/0062).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { statSync } from 'node:fs'
import { UsageError } from '../../host/index.js'
import { exitCodeForChild, type ExitCode } from '../../exit-codes.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'

const MCP_BIN = fileURLToPath(new URL('../../mcp/bin.js', import.meta.url))

export const mcpCommand: Command = {
  name: 'mcp',
  help: `Usage: digline mcp [--root DIR] [--config FILE]

An MCP server on stdin and stdout, for a coding agent's MCP configuration (docs/mcp.md). Its tools:
list_suites, list_runs, show_run, compare_run, pending, plan_run, run_suite and resume_run.
run_suite and resume_run call the target only when acknowledgedCalls is exactly the bill plan_run
announces. There is no tool that deletes, promotes, retires or re-judges into a suite.
Vitest's output and the server's notes go to stderr; it exits when the client goes away, after
stopping the runs under way (their journals stay resumable).

  --root DIR      the project to serve (default: the current directory), for a client that
                  cannot set the working directory of the servers it starts; --config
                  and --store are then read relative to DIR

${PROJECT_HELP}
  (with --tenant or --store the server only reads: plan_run, run_suite and resume_run are refused)`,
  async run(argv, io) {
    const { values } = parseCommand('mcp', argv, { ...PROJECT_OPTIONS, root: { type: 'string' } })
    if (values.help) return (io.stdout(mcpCommand.help), 0)
    const flags = {
      ...(values.config === undefined ? {} : { config: values.config }),
      ...(values.tenant === undefined ? {} : { tenant: values.tenant }),
      ...(values.store === undefined ? {} : { store: values.store }),
    }
    const root = resolve(io.cwd, values.root ?? '.')
    if (!statSync(root, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(
        `digline mcp: --root ${JSON.stringify(values.root)} was refused: it is not a directory`,
        'Pass the directory of the project, where its vitest.config.ts is.',
        ['--root'],
      )
    const child = spawn(process.execPath, [MCP_BIN, JSON.stringify(flags)], { cwd: root, env: io.env, stdio: 'inherit' })
    // The server stops its runs and exits on its own when stdin ends; a signal is passed on to it.
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    }
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    return new Promise<ExitCode>((resolve, reject) => {
      child.on('error', reject)
      child.on('exit', (code, signal) => {
        process.off('SIGINT', forward)
        process.off('SIGTERM', forward)
        resolve(exitCodeForChild(code, signal))
      })
    })
  },
}
