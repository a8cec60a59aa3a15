// The CLI as a function: argv in, exit code out. bin.ts is the only place that exits the process.
import pc from 'picocolors'
import { diglineErrorKind } from '../errors/recognise.js'
import { UsageError } from '../host/index.js'
import { exitCodeForError, exitCodesLine, type ExitCode } from '../exit-codes.js'
import type { CliIo, Command } from './command.js'
import { runCommand } from './commands/run.js'
import { listCommand } from './commands/list.js'
import { showCommand } from './commands/show.js'
import { pendingCommand } from './commands/pending.js'
import { promoteCommand } from './commands/promote.js'
import { compareCommand } from './commands/compare.js'
import { rejudgeCommand } from './commands/rejudge.js'
import { deleteCommand } from './commands/delete.js'
import { planCommand } from './commands/plan.js'
import { cacheCommand } from './commands/cache.js'
import { retireCommand } from './commands/retire.js'
import { exportCommand } from './commands/export.js'
import { importCommand } from './commands/import.js'
import { mergeCommand } from './commands/merge.js'
import { reportCommand } from './commands/report.js'
import { viewCommand } from './commands/view.js'
import { reviewCommand } from './commands/review.js'
import { mcpCommand } from './commands/mcp.js'
import { initCommand } from './commands/init.js'
import { commentCommand } from './commands/comment.js'
import { DIGLINE_VERSION } from '../version.js'
import { printable } from '../suite/printable-text.js'

export const COMMANDS: readonly Command[] = [
  initCommand,
  runCommand,
  listCommand,
  showCommand,
  pendingCommand,
  compareCommand,
  promoteCommand,
  rejudgeCommand,
  deleteCommand,
  planCommand,
  cacheCommand,
  retireCommand,
  exportCommand,
  importCommand,
  mergeCommand,
  reportCommand,
  commentCommand,
  viewCommand,
  reviewCommand,
  mcpCommand,
]

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return [
    `digline ${DIGLINE_VERSION}: evaluate LLM applications inside Vitest`,
    '',
    'Usage: digline <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run \`digline <command> --help\` for a command. Exit codes: ${exitCodesLine()}.`,
  ].join('\n')
}

export async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      if (name === undefined) return (io.stderr(usage()), 64)
      io.stdout(usage())
      return 0
    }
    if (name === '--version' || name === '-v') return (io.stdout(DIGLINE_VERSION), 0)
    const command = COMMANDS.find((c) => c.name === name)
    if (command === undefined) throw new UsageError(`digline: unknown command ${JSON.stringify(name)}`, 'Run `digline --help` for the commands there are.')
    return await command.run(rest, io)
  } catch (error) {
    const kind = diglineErrorKind(error)
    const label = kind === 'refusal' ? 'refused' : kind === 'internal' ? 'internal error' : 'failed'
    // an unexpected error and a defect of digline are printed with their stack, to be reported
    if (kind === 'refusal' || kind === 'failure') io.stderr(`${pc.red(label)} ${(error as Error).name}: ${printable((error as Error).message)}`)
    else io.stderr(`${pc.red(label)} ${printable(error instanceof Error ? (error.stack ?? error.message) : String(error))}`)
    return exitCodeForError(error)
  }
}
