// Posting to GitLab: the merge request's one digline note for the suite set, found by its marker and
// edited, else created, through the REST API v4 with plain fetch. GitLab has no check run; the
// pipeline's own status carries the gate.
import type { GitLabContext } from './forge-context.js'
import { permitted, type Posted } from './github-publisher.js'
import type { VerdictPost } from './verdict-post.js'

interface Note {
  id: number
  body?: string
  system?: boolean
}

async function call<T>(context: GitLabContext, method: string, path: string, body?: unknown): Promise<{ data: T; next: string | null }> {
  const response = await fetch(`${context.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': context.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) {
    let message = text.slice(0, 300)
    try {
      const parsed = JSON.parse(text) as { message?: unknown; error?: unknown }
      message = String(parsed.message ?? parsed.error ?? message)
    } catch {
      // not JSON: the start of the body is the message
    }
    // the same shape as Octokit's errors, so one `permitted` reads both
    throw Object.assign(new Error(message), { status: response.status })
  }
  const nextPage = response.headers.get('x-next-page')
  return { data: JSON.parse(text) as T, next: nextPage === null || nextPage === '' ? null : nextPage }
}

export async function postGitLabNote(context: GitLabContext, post: VerdictPost): Promise<Posted> {
  const notes = `/projects/${encodeURIComponent(context.projectId)}/merge_requests/${context.mergeRequest}/notes`
  return permitted(`posting the note to merge request !${context.mergeRequest} of project ${context.projectId}`, context.token, async () => {
    let page: string | null = '1'
    let mine: Note | undefined
    while (page !== null && mine === undefined) {
      const listed: { data: Note[]; next: string | null } = await call<Note[]>(context, 'GET', `${notes}?per_page=100&sort=asc&page=${encodeURIComponent(page)}`)
      mine = listed.data.find((n) => n.system !== true && (n.body ?? '').startsWith(post.marker))
      page = listed.next
    }
    if (mine !== undefined) {
      const { data } = await call<Note>(context, 'PUT', `${notes}/${mine.id}`, { body: post.body })
      return { action: 'updated' as const, id: data.id, url: null }
    }
    const { data } = await call<Note>(context, 'POST', notes, { body: post.body })
    return { action: 'created' as const, id: data.id, url: null }
  })
}
