// The CLI as a function: argv in, exit code out. bin.ts is the only place that exits the process.
import pc from 'picocolors'
import { diglineErrorKind } from '../errors/recognise.js'
import { UsageError } from '../host/index.js'
import { exitCodeForError, exitCodesLine, type ExitCode } from '../exit-codes.js'
import type { CliIo, CommandEntry } from './command.js'
import { DIGLINE_VERSION } from '../version.js'
import { printable } from '../suite/printable-text.js'

// The command table: what `digline --help` prints, and the one module a command's run imports (ADR 0421).
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'start a project: a Vitest config, an example suite and dataset, the store .gitignore, a CI workflow',
    load: () => import('./commands/init.js').then((m) => m.initCommand),
  },
  { name: 'run', summary: 'run the suites with Vitest, or finish a killed run with --resume', load: () => import('./commands/run.js').then((m) => m.runCommand) },
  { name: 'list', summary: 'list the suites of the tenant, or the runs of a suite, oldest first', load: () => import('./commands/list.js').then((m) => m.listCommand) },
  { name: 'show', summary: 'show one run: its header, aggregates and the cases that did not pass', load: () => import('./commands/show.js').then((m) => m.showCommand) },
  { name: 'pending', summary: 'list the journals of runs that were killed before they finished', load: () => import('./commands/pending.js').then((m) => m.pendingCommand) },
  {
    name: 'compare',
    summary: 'compare a run with the suite’s baseline, or with another run; exits as vitest run would',
    load: () => import('./commands/compare.js').then((m) => m.compareCommand),
  },
  {
    name: 'promote',
    summary: 'make a run the suite’s committed baseline, and record it in the register',
    load: () => import('./commands/promote.js').then((m) => m.promoteCommand),
  },
  {
    name: 'rejudge',
    summary: 'score the recorded answers of a run again with a suite’s scorers, without calling its target',
    load: () => import('./commands/rejudge.js').then((m) => m.rejudgeCommand),
  },
  { name: 'delete', summary: 'remove a run, its journal and every replay of it from the store', load: () => import('./commands/delete.js').then((m) => m.deleteCommand) },
  { name: 'plan', summary: 'how many cases and samples a run needs for its gate to catch a drop', load: () => import('./commands/plan.js').then((m) => m.planCommand) },
  { name: 'cache', summary: 'clear the response cache, or say why a case misses it', load: () => import('./commands/cache.js').then((m) => m.cacheCommand) },
  { name: 'retire', summary: 'retire a suite: hide it and refuse new runs of it, keeping its history', load: () => import('./commands/retire.js').then((m) => m.retireCommand) },
  {
    name: 'export',
    summary: 'write run documents of a suite to files, byte for byte as the store files them',
    load: () => import('./commands/export.js').then((m) => m.exportCommand),
  },
  { name: 'import', summary: 'file run documents written by digline export into the configured store', load: () => import('./commands/import.js').then((m) => m.importCommand) },
  {
    name: 'merge',
    summary: "file a sharded run from its shards' store directories (file store, CI artifacts)",
    load: () => import('./commands/merge.js').then((m) => m.mergeCommand),
  },
  { name: 'report', summary: 'write one self-contained HTML report of the suites’ runs', load: () => import('./commands/report.js').then((m) => m.reportCommand) },
  {
    name: 'comment',
    summary: 'post the verdict to the pull request: one comment updated in place, and a check run',
    load: () => import('./commands/comment.js').then((m) => m.commentCommand),
  },
  { name: 'view', summary: 'serve the report on 127.0.0.1, following runs in progress', load: () => import('./commands/view.js').then((m) => m.viewCommand) },
  {
    name: 'review',
    summary: 'list the labels people made in `digline view --review`, or export them as a dataset file',
    load: () => import('./commands/review.js').then((m) => m.reviewCommand),
  },
  { name: 'mcp', summary: 'serve the eval loop to a coding agent over MCP (stdio): no delete, no promote', load: () => import('./commands/mcp.js').then((m) => m.mcpCommand) },
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
    return await (await command.load()).run(rest, io)
  } catch (error) {
    const kind = diglineErrorKind(error)
    const label = kind === 'refusal' ? 'refused' : kind === 'internal' ? 'internal error' : 'failed'
    // an unexpected error and a defect of digline are printed with their stack, to be reported
    if (kind === 'refusal' || kind === 'failure') io.stderr(`${pc.red(label)} ${(error as Error).name}: ${printable((error as Error).message)}`)
    else io.stderr(`${pc.red(label)} ${printable(error instanceof Error ? (error.stack ?? error.message) : String(error))}`)
    return exitCodeForError(error)
  }
}
