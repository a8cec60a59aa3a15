// `digline comment`'s use case: read the verdict from the store, find where to post from the CI's
// variables, and post the comment (or note) and, on GitHub, the check run. Returns what was done.
import { dirname } from 'node:path'
import { collectNamedSuites } from '../launch/suite-manifest.js'
import { vitestBin } from '../launch/vitest-bin.js'
import type { ProjectSettings } from '../project/project-settings.js'
import type { Store } from '../../store/contract.js'
import { baselineLocation, locateInSuiteFile } from './case-location.js'
import { describeTarget, forgeContext, type ForgeContext, type ForgeName } from './forge-context.js'
import { postGitHubCheckRun, postGitHubComment, type CheckRunPosted, type LocatedCase, type Posted } from './github-publisher.js'
import { postGitLabNote } from './gitlab-publisher.js'
import { verdictPost, type RegressedCase, type VerdictPost, type VerdictPostRequest } from './verdict-post.js'

export interface PublishRequest extends Omit<VerdictPostRequest, 'tenant' | 'commit'> {
  forge: ForgeName
  /** The pull or merge request's number, over what the CI's variables say. */
  pr?: number
  /** The check run's name (GitHub). */
  checkName?: string
}

export interface PublishResult {
  forge: ForgeName
  /** "pull request owner/repo#12": never the token. */
  target: string
  post: Omit<VerdictPost, 'body'>
  comment: Posted
  /** GitHub only; skipped when the head commit is unknown. */
  checkRun: CheckRunPosted | { action: 'not-permitted'; problem: string } | { action: 'skipped'; why: string } | null
  /** Regressed cases the check run could not point at a file: named in its summary only. */
  unlocated: RegressedCase[]
}

async function suiteFiles(settings: ProjectSettings, env: NodeJS.ProcessEnv, suites: readonly string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  if (settings.configFile === undefined) return files
  const cwd = dirname(settings.configFile)
  const locates = (entries: readonly { suite: string; tenant: string; file?: string }[]) =>
    suites.every((s) => entries.some((e) => e.suite === s && e.tenant === settings.tenant && e.file !== undefined))
  try {
    for (const entry of await collectNamedSuites(suites, locates, vitestBin(cwd), cwd, env, settings.configFile))
      if (entry.tenant === settings.tenant && entry.file !== undefined) files.set(entry.suite, entry.file)
  } catch {
    // the annotations fall back to the baseline file; the comment does not depend on them
  }
  return files
}

async function locate(settings: ProjectSettings, env: NodeJS.ProcessEnv, regressed: readonly RegressedCase[], workspace: string) {
  const located: LocatedCase[] = []
  const unlocated: RegressedCase[] = []
  if (regressed.length === 0) return { located, unlocated }
  const files = await suiteFiles(settings, env, [...new Set(regressed.map((r) => r.suite))])
  for (const r of regressed) {
    const file = files.get(r.suite)
    const location = (file === undefined ? undefined : locateInSuiteFile(file, r.id, workspace)) ?? baselineLocation(settings.storeRoot, settings.tenant, r.suite, workspace)
    if (location === undefined) unlocated.push(r)
    else located.push({ regressed: r, location })
  }
  return { located, unlocated }
}

/** The verdict only, for `--dry-run`: no token, no network. */
export async function previewVerdict(store: Store, settings: ProjectSettings, request: Omit<PublishRequest, 'forge'>): Promise<VerdictPost> {
  return verdictPost(store, { ...request, tenant: settings.tenant })
}

export async function publishVerdict(store: Store, settings: ProjectSettings, request: PublishRequest, env: NodeJS.ProcessEnv): Promise<PublishResult> {
  // every refusal (no token, not a pull request) comes before the store is read or anything is sent
  const context: ForgeContext = forgeContext(env, request.forge, request.pr)
  const commit = context.forge === 'github' ? context.headSha : env.CI_COMMIT_SHA
  const post = await verdictPost(store, { ...request, tenant: settings.tenant, ...(commit === undefined ? {} : { commit }) })
  const { body: _body, ...shown } = post
  const target = describeTarget(context)
  if (context.forge === 'gitlab') return { forge: 'gitlab', target, post: shown, comment: await postGitLabNote(context, post), checkRun: null, unlocated: [] }
  const comment = await postGitHubComment(context, post)
  if (context.headSha === undefined)
    return { forge: 'github', target, post: shown, comment, checkRun: { action: 'skipped', why: 'the head commit is unknown (GITHUB_SHA is not set)' }, unlocated: post.regressed }
  const workspace = env.GITHUB_WORKSPACE !== undefined && env.GITHUB_WORKSPACE !== '' ? env.GITHUB_WORKSPACE : settings.root
  const { located, unlocated } = await locate(settings, env, post.regressed, workspace)
  const name = request.checkName ?? (post.set === 'all' ? 'digline' : `digline (${post.set})`)
  const checkPost =
    unlocated.length === 0
      ? post
      : { ...post, summary: `${post.summary}\n**Regressed cases without a known file:** ${unlocated.map((u) => `\`${u.suite}\`/\`${u.id}\``).join(', ')}\n` }
  return { forge: 'github', target, post: shown, comment, checkRun: await postGitHubCheckRun(context, checkPost, located, name), unlocated }
}
