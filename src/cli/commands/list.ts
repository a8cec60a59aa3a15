import { percent } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type CliIo, type Command } from '../command.js'
import { UsageError } from '../../host/index.js'
import { liveSuiteSummaries, retiredSuiteSummaries, type SuiteSummary } from '../../host/index.js'
import type { Store } from '../../host/index.js'
import { describeStore } from '../../host/index.js'
import { targetConfigDigest } from '../../host/index.js'

/** The first 12 hex digits, keeping the `-dirty` mark of a work tree with changes. */
export function shortCommit(commit: string | null | undefined): string {
  if (commit === undefined || commit === null) return 'no-git'
  return commit.endsWith('-dirty') ? `${commit.slice(0, 12)}-dirty` : commit.slice(0, 12)
}

async function listSuites(store: Store, tenant: string, storeRoot: string, json: boolean, io: CliIo): Promise<0> {
  const lines = await liveSuiteSummaries(store, tenant)
  if (json) return (io.stdout(JSON.stringify({ tenant, suites: lines }, null, 2)), 0)
  if (lines.length === 0) return (io.stdout(`No suites with runs in tenant ${tenant} (${describeStore(storeRoot)}).`), 0)
  for (const l of lines) io.stdout(`${l.suite}  ${l.runs} run(s)  latest ${l.latest ?? 'none'}  ${baselineText(l)}`)
  return 0
}

function baselineText(l: SuiteSummary): string {
  return l.baseline_refusal !== undefined ? `baseline unreadable (${l.baseline_refusal})` : l.baseline === null ? 'no baseline' : `baseline ${l.baseline}`
}

async function listRetired(store: Store, tenant: string, storeRoot: string, json: boolean, io: CliIo): Promise<0> {
  const lines = await retiredSuiteSummaries(store, tenant)
  if (json) return (io.stdout(JSON.stringify({ tenant, retired: lines }, null, 2)), 0)
  if (lines.length === 0) return (io.stdout(`No retired suites in tenant ${tenant} (${describeStore(storeRoot)}).`), 0)
  for (const l of lines) io.stdout(`${l.suite}  retired ${l.retired_at}  ${l.runs} run(s)  ${baselineText(l)}`)
  return 0
}

export const listCommand: Command = {
  name: 'list',
  help: `Usage: digline list [--suite S | --retired] [--json]

Without --suite: the tenant's suites, each with its latest run and its baseline; retired suites
(digline retire) are left out. With --retired: the retired suites, each with when it was retired,
its runs and its baseline, all kept. With --suite S: the run documents of suite S (retired or not),
reading only each document's header: its key, environment, commit, pass rate, and the target it
measured (the digest of its declared config, 12 hex of sha256, and the model it reported), so two
runs of different models tell apart, and for a variant's run which variant of which suite it is
(a suite's variants are listed as suites of their own, <suite>.<variant>). Files that cannot be read are listed with the refusal that
names why.

  --suite S   the suite
  --retired   the retired suites of the tenant
  --json      one JSON document on stdout

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('list', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, retired: { type: 'boolean' }, json: { type: 'boolean' } })
    if (values.help) return (io.stdout(listCommand.help), 0)
    if (values.retired && values.suite !== undefined) throw new UsageError('digline list: --retired and --suite go separately', 'Pass one of them.', ['--retired'])
    const { settings, store } = await openProject(io.cwd, values, io.env)
    if (values.retired) return listRetired(store, settings.tenant, settings.storeRoot, values.json === true, io)
    if (values.suite === undefined) return listSuites(store, settings.tenant, settings.storeRoot, values.json === true, io)
    const suite = requireFlag('list', 'suite', values.suite)
    const stored = await store.listRuns(settings.tenant, suite)
    const listing = { ...stored, runs: stored.runs.map((r) => (r.header === undefined ? r : { ...r, target_config_digest: targetConfigDigest(r.header.target_config) })) }
    const retirement = await store.retirementOf(settings.tenant, suite)
    if (values.json) {
      io.stdout(JSON.stringify(retirement === undefined ? listing : { ...listing, retired_at: retirement.retired_at }, null, 2))
      return 0
    }
    if (retirement !== undefined) io.stdout(`Suite ${suite} was retired at ${retirement.retired_at}; its runs are kept:`)
    if (listing.runs.length === 0) {
      io.stdout(`No runs of suite ${suite} in tenant ${settings.tenant} (${describeStore(settings.storeRoot)}).`)
      return 0
    }
    for (const run of listing.runs) {
      if (run.header === undefined) {
        io.stdout(`${run.key ?? '(no readable key)'}  refused: ${run.refusal.name}: ${run.refusal.message.split('\n')[0]}`)
        continue
      }
      const h = run.header
      const rate =
        run.aggregates === undefined
          ? ''
          : `  pass rate ${percent(run.aggregates.pass_rate)}  ${run.aggregates.cases} cases${run.aggregates.errored > 0 ? `, ${run.aggregates.errored} errored` : ''}`
      const replay = h.rejudged_from === undefined ? '' : `  replay of ${h.rejudged_from_suite ?? suite}/${h.rejudged_from}`
      const target = `  target ${targetConfigDigest(h.target_config)} ${h.observed.target_model ?? 'no model reported'}`
      const variant = h.variant === undefined ? '' : `  variant ${h.variant.name} of ${h.variant.suite}`
      io.stdout(`${run.key}  ${h.environment}  ${shortCommit(h.git_commit)}${rate}${target}${variant}${replay}`)
    }
    return 0
  },
}
