// Posting to GitHub through @octokit/rest: the pull request's one digline comment for the suite set
// (found by its marker and edited, else created) and a check run on the head commit with one
// annotation per regressed case. A 403 (a fork's pull request gets a read-only GITHUB_TOKEN) is an
// answer, not a failure: the step says so and goes on.
import type { Octokit } from '@octokit/rest'
import { printable } from '../../suite/printable-text.js'
import { DIGLINE_VERSION } from '../../version.js'
import type { CaseLocation } from './case-location.js'
import { PublishFailedError } from './errors.js'
import type { GitHubContext } from './forge-context.js'
import type { RegressedCase, VerdictPost } from './verdict-post.js'

/** GitHub takes at most 50 annotations per request; more go in updates of the same check run. */
export const ANNOTATIONS_PER_REQUEST = 50
const MAX_MESSAGE = 4000

export type Posted = { action: 'created' | 'updated'; id: number; url: string | null } | { action: 'not-permitted'; problem: string }

export interface CheckRunPosted {
  action: 'created'
  id: number
  url: string | null
  annotations: number
}

export interface LocatedCase {
  regressed: RegressedCase
  location: CaseLocation
}

interface HttpError {
  status: number
  message: string
}

function httpError(error: unknown): HttpError | undefined {
  const e = error as { status?: unknown; message?: unknown }
  return typeof e?.status === 'number' ? { status: e.status, message: typeof e.message === 'string' ? e.message : '' } : undefined
}

/** The forge's own words, cut at the documentation link, with the token (should it ever be echoed) masked. */
export function forgeWords(message: string, token: string): string {
  const words = printable(message.split(' - https://')[0]!.trim())
  return token === '' ? words : words.split(token).join('***')
}

/** Runs one step against the forge: a 403 becomes `not-permitted`, any other error a PublishFailedError. */
export async function permitted<T>(what: string, token: string, step: () => Promise<T>): Promise<T | { action: 'not-permitted'; problem: string }> {
  try {
    return await step()
  } catch (error) {
    const http = httpError(error)
    if (http?.status === 403) return { action: 'not-permitted', problem: forgeWords(http.message, token) }
    const said = http === undefined ? forgeWords(error instanceof Error ? error.message : String(error), token) : `HTTP ${http.status}: ${forgeWords(http.message, token)}`
    throw new PublishFailedError(
      `digline comment: ${what} failed (${said}); the gate's verdict is unchanged`,
      'Check the token and the repository it names, then run `digline comment` again.',
    )
  }
}

// loaded on the first post: every launch imports the host face, only `digline comment` talks to GitHub
async function clientFor(context: GitHubContext): Promise<Octokit> {
  const { Octokit } = await import('@octokit/rest')
  const silent = () => {}
  return new Octokit({
    auth: context.token,
    baseUrl: context.apiUrl,
    userAgent: `digline/${DIGLINE_VERSION}`,
    // the request log would print each request (and at debug level its headers): digline prints its own lines
    log: { debug: silent, info: silent, warn: silent, error: silent },
  })
}

export async function postGitHubComment(context: GitHubContext, post: VerdictPost): Promise<Posted> {
  const octokit = await clientFor(context)
  const where = { owner: context.owner, repo: context.repo }
  return permitted(`posting the comment to ${context.owner}/${context.repo}#${context.pullRequest}`, context.token, async () => {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...where, issue_number: context.pullRequest, per_page: 100 })
    const mine = comments.find((c) => (c.body ?? '').startsWith(post.marker))
    if (mine !== undefined) {
      const { data } = await octokit.rest.issues.updateComment({ ...where, comment_id: mine.id, body: post.body })
      return { action: 'updated' as const, id: data.id, url: data.html_url ?? null }
    }
    const { data } = await octokit.rest.issues.createComment({ ...where, issue_number: context.pullRequest, body: post.body })
    return { action: 'created' as const, id: data.id, url: data.html_url ?? null }
  })
}

function annotationOf({ regressed: r, location }: LocatedCase) {
  const score = r.score === null ? '' : ` Its score is ${r.score.toFixed(3)}.`
  const reason = r.reason === null ? '' : `\n${printable(r.reason)}`
  return {
    path: location.path,
    start_line: location.line,
    end_line: location.line,
    annotation_level: r.gating ? ('failure' as const) : ('warning' as const),
    title: `${r.suite}: ${r.id} passed in the baseline and fails now`,
    message: `Case ${r.id} of suite ${r.suite} passed in baseline ${r.baseline_key} and fails in run ${r.run_key}.${score}${reason}`.slice(0, MAX_MESSAGE),
  }
}

export async function postGitHubCheckRun(
  context: GitHubContext,
  post: VerdictPost,
  located: readonly LocatedCase[],
  name: string,
): Promise<CheckRunPosted | { action: 'not-permitted'; problem: string }> {
  const octokit = await clientFor(context)
  const where = { owner: context.owner, repo: context.repo }
  const annotations = located.map(annotationOf)
  const batches = Array.from({ length: Math.ceil(annotations.length / ANNOTATIONS_PER_REQUEST) }, (_, i) =>
    annotations.slice(i * ANNOTATIONS_PER_REQUEST, (i + 1) * ANNOTATIONS_PER_REQUEST),
  )
  const output = { title: post.title, summary: post.summary }
  return permitted(`creating the check run on ${context.owner}/${context.repo}@${(context.headSha ?? '').slice(0, 12)}`, context.token, async () => {
    const { data } = await octokit.rest.checks.create({
      ...where,
      name,
      head_sha: context.headSha!,
      status: 'completed',
      conclusion: post.exitCode === 0 ? 'success' : 'failure',
      output: { ...output, annotations: batches[0] ?? [] },
    })
    for (const batch of batches.slice(1)) await octokit.rest.checks.update({ ...where, check_run_id: data.id, output: { ...output, annotations: batch } })
    return { action: 'created' as const, id: data.id, url: data.html_url ?? null, annotations: annotations.length }
  })
}
