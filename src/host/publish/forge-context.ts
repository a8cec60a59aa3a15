// Where `digline comment` posts, read from the CI's own variables: on GitHub Actions the repository,
// the pull request (from the event payload, else GITHUB_REF) and the head commit; on GitLab CI the
// project and the merge request. The token is kept here and handed only to the forge's client.
import { readFileSync } from 'node:fs'
import { NotAPullRequestError, PublishTokenMissingError } from './errors.js'

export interface GitHubContext {
  forge: 'github'
  apiUrl: string
  owner: string
  repo: string
  pullRequest: number
  /** The pull request's head commit (a pull_request event's GITHUB_SHA is the merge commit, which the PR does not show). */
  headSha: string | undefined
  token: string
}

export interface GitLabContext {
  forge: 'gitlab'
  apiUrl: string
  projectId: string
  mergeRequest: number
  token: string
}

export type ForgeContext = GitHubContext | GitLabContext

export type ForgeName = ForgeContext['forge']

const DRY_RUN = 'or run `digline comment --dry-run` to print the comment'

/** GitLab when its pipeline variables are there (and GitHub's are not), else GitHub. */
export function detectForge(env: NodeJS.ProcessEnv): ForgeName {
  if (env.GITHUB_ACTIONS !== 'true' && (env.GITLAB_CI === 'true' || (env.CI_API_V4_URL ?? '') !== '')) return 'gitlab'
  return 'github'
}

function positive(text: string | undefined): number | undefined {
  return text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : undefined
}

interface PullRequestEvent {
  number?: unknown
  pull_request?: { number?: unknown; head?: { sha?: unknown } }
}

function readEvent(path: string | undefined): PullRequestEvent {
  if (path === undefined || path === '') return {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof parsed === 'object' && parsed !== null ? (parsed as PullRequestEvent) : {}
  } catch {
    return {}
  }
}

export function gitHubContext(env: NodeJS.ProcessEnv, pr?: number): GitHubContext {
  const token = env.GITHUB_TOKEN ?? ''
  if (token === '')
    throw new PublishTokenMissingError(
      'digline comment: GITHUB_TOKEN is not set, so nothing can be posted to the pull request',
      `Give the step the token: \`env: GITHUB_TOKEN: \${{ github.token }}\` with \`permissions: pull-requests: write, checks: write\`, ${DRY_RUN}.`,
      ['GITHUB_TOKEN'],
    )
  const [owner, repo, ...rest] = (env.GITHUB_REPOSITORY ?? '').split('/')
  if (owner === undefined || owner === '' || repo === undefined || repo === '' || rest.length > 0)
    throw new NotAPullRequestError(
      `digline comment: GITHUB_REPOSITORY is ${JSON.stringify(env.GITHUB_REPOSITORY ?? '')}, not owner/name, so there is no repository to comment in`,
      `Run \`digline comment\` in a GitHub Actions job (it sets GITHUB_REPOSITORY), ${DRY_RUN}.`,
      ['GITHUB_REPOSITORY'],
    )
  const event = readEvent(env.GITHUB_EVENT_PATH)
  const fromRef = /^refs\/pull\/([0-9]+)\/(?:merge|head)$/.exec(env.GITHUB_REF ?? '')?.[1]
  const number = pr ?? positive(String(event.pull_request?.number ?? '')) ?? positive(fromRef)
  if (number === undefined)
    throw new NotAPullRequestError(
      `digline comment: this job is not for a pull request (no pull_request in ${env.GITHUB_EVENT_PATH ? 'GITHUB_EVENT_PATH' : 'the event'}, GITHUB_REF ${JSON.stringify(env.GITHUB_REF ?? '')}), so there is nothing to comment on`,
      `Run it in a job triggered by \`pull_request\`, pass \`digline comment --pr N\`, ${DRY_RUN}.`,
      ['GITHUB_REF'],
    )
  const head = event.pull_request?.head?.sha
  const headSha = typeof head === 'string' && /^[0-9a-f]{40,64}$/.test(head) ? head : (env.GITHUB_SHA ?? '') === '' ? undefined : env.GITHUB_SHA
  return {
    forge: 'github',
    apiUrl: (env.GITHUB_API_URL ?? '') === '' ? 'https://api.github.com' : env.GITHUB_API_URL!.replace(/\/+$/, ''),
    owner,
    repo,
    pullRequest: number,
    headSha,
    token,
  }
}

export function gitLabContext(env: NodeJS.ProcessEnv, mr?: number): GitLabContext {
  const token = env.GITLAB_TOKEN ?? ''
  if (token === '')
    throw new PublishTokenMissingError(
      'digline comment: GITLAB_TOKEN is not set, so nothing can be posted to the merge request (a job token may not write notes)',
      `Add a project access token with the \`api\` scope as the masked CI/CD variable GITLAB_TOKEN, ${DRY_RUN}.`,
      ['GITLAB_TOKEN'],
    )
  const apiUrl = (env.CI_API_V4_URL ?? '').replace(/\/+$/, '')
  const projectId = env.CI_PROJECT_ID ?? ''
  const number = mr ?? positive(env.CI_MERGE_REQUEST_IID)
  if (apiUrl === '' || projectId === '' || number === undefined)
    throw new NotAPullRequestError(
      `digline comment: this pipeline is not for a merge request (CI_API_V4_URL, CI_PROJECT_ID and CI_MERGE_REQUEST_IID must all be set; ${[apiUrl === '' ? 'CI_API_V4_URL' : '', projectId === '' ? 'CI_PROJECT_ID' : '', number === undefined ? 'CI_MERGE_REQUEST_IID' : ''].filter(Boolean).join(', ')} missing)`,
      `Run it in a merge-request pipeline (\`rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"\`), pass \`digline comment --pr N\`, ${DRY_RUN}.`,
      ['CI_MERGE_REQUEST_IID'],
    )
  return { forge: 'gitlab', apiUrl, projectId, mergeRequest: number, token }
}

export function forgeContext(env: NodeJS.ProcessEnv, forge: ForgeName, pr?: number): ForgeContext {
  return forge === 'gitlab' ? gitLabContext(env, pr) : gitHubContext(env, pr)
}

/** What the messages call the place posted to; never the token. */
export function describeTarget(context: ForgeContext): string {
  return context.forge === 'github'
    ? `pull request ${context.owner}/${context.repo}#${context.pullRequest}`
    : `merge request !${context.mergeRequest} of project ${context.projectId}`
}
