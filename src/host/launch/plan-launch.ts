// Every front end that starts Vitest for digline (`digline run`, `rejudge`, `merge`, the mcp tools)
// asks here what to start: every check before the launch (the resume's, the replay's, the merge's,
// a shard's created_at), the directive the workers decode (suite-launch.ts), the files and
// arguments vitest gets, and the lines said first (docs/adr/0101-one-launch-plan.md).
import { relative } from 'node:path'
import { ResumedSuiteNotDeclaredError, ResumeFilteredError } from './errors.js'
import { replayIntoUndeclared, SuiteNotDeclaredError } from '../errors.js'
import type { Store } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { createdAtNow } from '../../suite/keys.js'
import { planMerge, type MergedRun } from '../lifecycle/merge-shards.js'
import { rejudgeSource } from '../lifecycle/rejudge.js'
import { assertNotRetired } from '../lifecycle/retired-suites.js'
import { chooseResume } from './choose-resume.js'
import { encodeDirective, encodeShard, type LaunchDirective } from './launch-directive.js'
import { assertShardCreatedAt, shardLabel, type Shard } from './shard.js'
import { collectNamedSuites, collectSuiteManifest, type SuiteManifestEntry } from './suite-manifest.js'
import { vitestBin } from './vitest-bin.js'

export interface OpenedLaunchProject {
  tenant: string
  /** The store locator the digline() options resolve to: a directory or a store URL. */
  storeRoot: string
  store: Store
}

export interface LaunchProject {
  /** The directory the front end was started in (the Vitest project). */
  cwd: string
  env: NodeJS.ProcessEnv
  /** The --config file, when one was named (vitest and `vitest list` get it); a `run` passes it among its vitest arguments instead. */
  config: string | undefined
  /** The tenant and store, opened only when a request needs them (a fresh run of every suite needs neither). */
  open(): Promise<OpenedLaunchProject>
}

interface Narrowing {
  /** The vitest arguments the person gave (file filters, -t, --config…); a resume refuses a test-name filter. */
  vitestArgs?: readonly string[]
  /** Start vitest on the files that declare digline suites only, so no other test of the project runs (digline mcp). */
  suitesOnly?: boolean
  shard?: Shard
}

export type LaunchRequest =
  | (Narrowing & { kind: 'fresh'; suite?: string | undefined })
  | (Narrowing & { kind: 'resume'; key?: string | undefined; suite?: string | undefined; keepErrors: boolean })
  | { kind: 'rejudge'; suite: string; run: string; into: string }
  | { kind: 'merge'; stores: readonly string[] }

export interface PlannedLaunch {
  vitestArgs: string[]
  env: NodeJS.ProcessEnv
  /** What the front end says (on stderr) before vitest starts. */
  notes: string[]
  /** suite → the key of the run a resume finishes. */
  resumed: Record<string, string>
  /** Pending runs a resume without KEY passed over (older ones of a chosen suite). */
  passedOver: { suite: string; key: string }[]
  /** A rejudge: the replay to look for once vitest has ended (filedReplay). */
  replay?: { tenant: string; into: string; source: { suite: string; key: string }; createdAt: string }
  /** A merge: the runs it files. */
  merged?: MergedRun[]
}

export async function planLaunch(project: LaunchProject, request: LaunchRequest): Promise<PlannedLaunch> {
  if (request.kind === 'rejudge') return planReplay(project, request)
  if (request.kind === 'merge') return planMergeLaunch(project, request)
  if (request.suite !== undefined) assertSafeSegment('suite', request.suite)
  const configArgs = project.config === undefined ? [] : ['--config', project.config]
  const given = [...(request.vitestArgs ?? []), ...configArgs]
  const { shard } = request
  if (request.kind === 'resume') return planResume(project, request, given)
  if (shard !== undefined) assertShardCreatedAt(shard, project.env)
  const env = encodeShard(project.env, shard)
  const plain = { resumed: {}, passedOver: [], notes: [] }
  if (request.suite === undefined && request.suitesOnly !== true) return { ...plain, vitestArgs: given, env: encodeDirective(env, { kind: 'fresh' }) }
  const { tenant } = await project.open()
  const refused: string[] = []
  const declared = (await manifestOf(project, encodeDirective(env, { kind: 'fresh' }), given, refused)).filter(
    (e) => e.tenant === tenant && (request.suite === undefined || selects(request.suite, e)),
  )
  // Every suite file, also one whose suite is refused at collection: the launch shows that refusal.
  const suiteFiles = request.suite === undefined ? [...filesOf(project, declared), ...refused.map((f) => relative(project.cwd, f) || f)] : filesOf(project, declared)
  if (suiteFiles.length === 0) {
    throw new SuiteNotDeclaredError(
      request.suite === undefined
        ? `no suite file this launch runs declares a digline suite (tenant ${tenant}), so there is nothing to run; nothing was called`
        : `suite ${request.suite} is not declared by any suite file this launch runs (tenant ${tenant}), so there is nothing to run; nothing was called`,
      '`vitest list` in the project shows the suites its files declare (list_suites in digline mcp); then run one of them, or every suite without a suite name',
      ['suite'],
    )
  }
  // `--suite pick` runs every variant pick.<variant> of suite pick; the workers are told the names they file under.
  const directive: LaunchDirective = request.suite === undefined ? { kind: 'fresh' } : { kind: 'fresh', suites: [...new Set(declared.map((e) => e.suite))] }
  return { ...plain, vitestArgs: [...given, ...new Set(suiteFiles)], env: encodeDirective(env, directive) }
}

async function planResume(project: LaunchProject, request: Extract<LaunchRequest, { kind: 'resume' }>, given: string[]): Promise<PlannedLaunch> {
  const { key, suite, shard } = request
  if (key !== undefined) assertSafeSegment('key', key)
  refuseNameFilter(given, key)
  const { tenant, store } = await project.open()
  const choice = await chooseResume(store, tenant, { ...(key === undefined ? {} : { key }), ...(suite === undefined ? {} : { suite }), ...(shard === undefined ? {} : { shard }) })
  const base = encodeShard(project.env, shard)
  // Before any call: every suite chosen is declared by a file this launch runs, or it would resume nothing.
  const chosen = Object.keys(choice.chosen)
  const declaresChosen = (entries: readonly SuiteManifestEntry[]) => chosen.every((s) => entries.some((e) => e.tenant === tenant && e.suite === s))
  const listEnv = encodeDirective(base, { kind: 'fresh' })
  // Only without a file filter of the person's: the suites' own files would widen theirs.
  const listed = configOnly(given).length === given.length ? await namedOf(project, chosen, declaresChosen, listEnv, given) : await manifestOf(project, listEnv, given)
  const declared = listed.filter((e) => e.tenant === tenant)
  const missing = Object.entries(choice.chosen).find(([s]) => !declared.some((e) => e.suite === s))
  if (missing !== undefined) await refuseUndeclared(project, tenant, given, missing)
  const notes = [
    ...choice.passedOver.map((p) => `digline: passed over pending run ${p.key} of suite ${p.suite} (resume it with \`digline run --resume ${p.key}\`)`),
    ...Object.entries(choice.chosen).map(([s, k]) => `digline: resuming run ${k} of suite ${s}${shard === undefined ? '' : ` as shard ${shardLabel(shard)}`}`),
  ]
  const files =
    request.suitesOnly === true
      ? filesOf(
          project,
          declared.filter((e) => Object.hasOwn(choice.chosen, e.suite)),
        )
      : []
  return {
    vitestArgs: [...given, ...files],
    env: encodeDirective(base, { kind: 'resume', runs: choice.chosen, keepErrors: request.keepErrors }),
    notes,
    resumed: choice.chosen,
    passedOver: choice.passedOver.map((p) => ({ suite: p.suite, key: p.key })),
  }
}

/** A resume runs whole suites: a test-name filter would leave cases of the run out. */
function refuseNameFilter(vitestArgs: readonly string[], key: string | undefined): void {
  const flag = vitestArgs.find((a) => a === '-t' || a === '--testNamePattern' || a.startsWith('-t=') || a.startsWith('--testNamePattern=') || /^-t./.test(a))
  if (flag === undefined) return
  const name = flag.split('=')[0]!
  throw new ResumeFilteredError(
    `digline run --resume was refused with ${name}: a resume runs whole suites, and a test-name filter leaves cases of the resumed run out; nothing was called`,
    `digline run --resume${key === undefined ? '' : ` ${key}`} (without ${name})`,
    [name],
  )
}

/** A chosen suite no file of this launch declares: left out by a file filter, or declared nowhere any more. */
async function refuseUndeclared(project: LaunchProject, tenant: string, given: readonly string[], [suite, key]: [string, string]): Promise<never> {
  const config = configOnly(given)
  const anywhere = config.length === given.length ? [] : await manifestOf(project, encodeDirective(project.env, { kind: 'fresh' }), config)
  if (anywhere.some((e) => e.tenant === tenant && e.suite === suite)) {
    throw new ResumeFilteredError(
      `digline run --resume was refused: the file filter ${JSON.stringify(given.join(' '))} leaves out the file of suite ${suite}, whose run ${key} is resumed; a resume runs whole suites, and nothing was called`,
      `digline run --resume ${key} (without the file filter)`,
      ['--resume'],
    )
  }
  throw new ResumedSuiteNotDeclaredError(
    `the resume was refused: run ${key} is of suite ${suite}, which no suite file of this Vitest project declares any more (tenant ${tenant}), so nothing would be resumed; nothing was called`,
    `Restore the file that declares suite ${suite}, then \`digline run --resume ${key}\`; or \`digline delete --suite ${suite} --run ${key}\` to drop the journal`,
    ['--resume'],
  )
}

async function planReplay(project: LaunchProject, request: Extract<LaunchRequest, { kind: 'rejudge' }>): Promise<PlannedLaunch> {
  const { suite, into } = request
  assertSafeSegment('suite', suite)
  assertSafeSegment('suite', into)
  const { tenant, storeRoot, store } = await project.open()
  const key = await rejudgeSource(store, tenant, suite, request.run)
  await assertNotRetired(store, tenant, into, `re-judge run ${key} of suite ${suite} into suite ${into}`)
  // A replay takes its own created_at, and only the files that declare T take part: another file's refusal must not be read as this replay's.
  const clean = encodeDirective(project.env, { kind: 'fresh' })
  delete clean.DIGLINE_CREATED_AT
  const configArgs = project.config === undefined ? [] : ['--config', project.config]
  const declaresInto = (e: SuiteManifestEntry) => e.suite === into && e.tenant === tenant
  const declaring = (await namedOf(project, [into], (entries) => entries.some(declaresInto), clean, configArgs)).filter(declaresInto)
  if (declaring.length === 0) throw replayIntoUndeclared(suite, key, into)
  const createdAt = createdAtNow()
  return {
    vitestArgs: [...configArgs, ...filesOf(project, declaring)],
    env: encodeDirective(clean, { kind: 'rejudge', value: { into, suite, key, created_at: createdAt, tenant, store: storeRoot } }),
    notes: [`digline: re-judging run ${key} of suite ${suite} with the scorers of suite ${into}`],
    resumed: {},
    passedOver: [],
    replay: { tenant, into, source: { suite, key }, createdAt },
  }
}

async function planMergeLaunch(project: LaunchProject, request: Extract<LaunchRequest, { kind: 'merge' }>): Promise<PlannedLaunch> {
  const { tenant, store } = await project.open()
  const runs = await planMerge(tenant, request.stores, store)
  const env = encodeDirective(project.env, { kind: 'merge', runs: Object.fromEntries(runs.map((r) => [r.suite, { key: r.key, stores: r.stores }])) })
  const configArgs = project.config === undefined ? [] : ['--config', project.config]
  const declared = new Set((await manifestOf(project, env, configArgs)).filter((e) => e.tenant === tenant).map((e) => e.suite))
  const undeclared = runs.find((r) => !declared.has(r.suite))
  if (undeclared !== undefined) {
    throw new ResumedSuiteNotDeclaredError(
      `digline merge was refused: run ${undeclared.key} is of suite ${undeclared.suite}, which no suite file of this Vitest project declares (tenant ${tenant}), so it could not be filed; nothing was filed`,
      `Run \`digline merge\` in the project (and at the commit) the shards ran, so that suite ${undeclared.suite} is declared.`,
      ['DIR'],
    )
  }
  return {
    vitestArgs: configArgs,
    env,
    notes: runs.map((r) => `digline: merging run ${r.key} of suite ${r.suite} from ${r.count} shard(s)`),
    resumed: {},
    passedOver: [],
    merged: runs,
  }
}

/** `--suite S` names suite S, or a suite declared with variants as S (so each of its variants S.<variant>). */
export function selects(suite: string, entry: Pick<SuiteManifestEntry, 'suite' | 'variant'>): boolean {
  return entry.suite === suite || entry.variant?.suite === suite
}

function manifestOf(project: LaunchProject, env: NodeJS.ProcessEnv, vitestArgs: readonly string[], refusedFiles?: string[]): Promise<SuiteManifestEntry[]> {
  return collectSuiteManifest(vitestBin(project.cwd), project.cwd, env, undefined, vitestArgs, refusedFiles)
}

/** The suites declared now, listed first over the files likely to declare `suites` (ADR 0500); `vitestArgs` holds no file filter. */
function namedOf(
  project: LaunchProject,
  suites: readonly string[],
  enough: (declared: readonly SuiteManifestEntry[]) => boolean,
  env: NodeJS.ProcessEnv,
  vitestArgs: readonly string[],
): Promise<SuiteManifestEntry[]> {
  return collectNamedSuites(suites, enough, vitestBin(project.cwd), project.cwd, env, undefined, vitestArgs)
}

/** The --config arguments among the vitest arguments given. */
function configOnly(given: readonly string[]): string[] {
  return given.filter((a, i) => a === '--config' || a.startsWith('--config=') || given[i - 1] === '--config')
}

/** The suite files of these entries, as vitest file filters relative to the project. */
function filesOf(project: LaunchProject, entries: readonly SuiteManifestEntry[]): string[] {
  return [...new Set(entries.map((e) => e.file).filter((f): f is string => f !== undefined))].map((f) => relative(project.cwd, f) || f)
}
