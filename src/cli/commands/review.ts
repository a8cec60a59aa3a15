import { datasetFormatOf, datasetText, formatReviewLines, reviewDatasetRows, reviewsOf, writeReviewExport } from '../../host/index.js'
import { UsageError } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { PROJECT_HELP, type CliIo, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'

export const reviewCommand: Command = {
  name: 'review',
  help: `Usage: digline review list --suite S [--run KEY|latest] [--json]
       digline review export --suite S [--run KEY|latest] --out FILE

Labels (review records) are made in \`digline view --review\` and kept in the store, append-only:
each names its reviewer, run, case and the digest of the answers labelled, the verdict the person
says is right, and whether they agree with each scorer.

  list         every label of suite S (or of one run), oldest first, one per line; --json: one
               review record per line, as the store keeps it
  export       each reviewer's newest label of each case, as a dataset file dataset() reads back:
               FILE ending in .jsonl, .json or .csv. A row's id is the case id and 12 hex of the
               label's id, its tags human-pass or human-fail, its metadata the label (and the run's
               own verdict of the case); its input and expected value are the case's when the run
               recorded them, else null. A FILE already there with other bytes is refused.

${PROJECT_HELP}`,
  async run(argv, io) {
    const [sub, ...rest] = argv
    if (sub === undefined || sub === '--help' || sub === '-h') {
      if (sub === undefined) throw new UsageError('digline review: say list or export', 'Run `digline review --help`.')
      return (io.stdout(reviewCommand.help), 0)
    }
    if (sub === 'list') return list(rest, io)
    if (sub === 'export') return exportLabels(rest, io)
    throw new UsageError(`digline review: unknown subcommand ${JSON.stringify(sub)}`, 'Run `digline review --help`: the subcommands are list and export.')
  },
}

async function list(argv: string[], io: CliIo): Promise<0> {
  const { values } = parseCommand('review list', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, run: { type: 'string' }, json: { type: 'boolean' } })
  if (values.help) return (io.stdout(reviewCommand.help), 0)
  const suite = requireFlag('review list', 'suite', values.suite)
  const run = values.run === undefined ? undefined : requireFlag('review list', 'run', values.run)
  const { settings, store } = await openProject(io.cwd, values, io.env)
  const reviews = await reviewsOf(store, settings.tenant, suite, run)
  if (values.json === true) {
    for (const r of reviews) io.stdout(JSON.stringify(r))
    return 0
  }
  const where = run === undefined ? `suite ${suite}` : `run ${run} of suite ${suite}`
  if (reviews.length === 0) io.stdout(`No label of ${where} (tenant ${settings.tenant}) yet: make some with \`digline view --review\`.`)
  for (const line of formatReviewLines(reviews)) io.stdout(line)
  return 0
}

async function exportLabels(argv: string[], io: CliIo): Promise<0> {
  const { values } = parseCommand('review export', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, run: { type: 'string' }, out: { type: 'string' } })
  if (values.help) return (io.stdout(reviewCommand.help), 0)
  const suite = requireFlag('review export', 'suite', values.suite)
  const run = values.run === undefined ? undefined : requireFlag('review export', 'run', values.run)
  const out = requireFlag('review export', 'out', values.out)
  const format = datasetFormatOf(out)
  const { settings, store } = await openProject(io.cwd, values, io.env)
  const rows = await reviewDatasetRows(store, settings.tenant, await reviewsOf(store, settings.tenant, suite, run))
  const written = await writeReviewExport(out, io.cwd, datasetText(rows, format))
  io.stdout(
    `${written.unchanged ? 'Unchanged' : 'Wrote'} ${written.file}: ${rows.length} label${rows.length === 1 ? '' : 's'} of suite ${suite} (tenant ${settings.tenant}) as ${format}, one row per reviewer and case. Read it in a suite with dataset(${JSON.stringify(out)}).`,
  )
  return 0
}
