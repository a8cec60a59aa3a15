// `digline comment` in process, against a loopback server that speaks GitHub's and GitLab's REST
// endpoints and records what it received: one comment per suite set, edited in place on the next
// run; a check run with an annotation per regressed case; a fork's read-only token told, exit 0;
// refusals whose `next:` works; and the token nowhere but in the credential header.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CliIo } from '../../../src/cli/command.js'
import { main } from '../../../src/cli/main.js'
import type { RunDocument } from '../../../src/document/schema.js'
import { locateInSuiteFile } from '../../../src/host/publish/case-location.js'
import { openStore } from '../../../src/store/open-store.js'
import { markdownText } from '../../../src/suite/markdown-text.js'
import { wilson } from '../../../src/stats/wilson.js'
import { keyOf, makeRun, promoteFirst } from '../../helpers/make-run.js'
import { startForgeServer, type ForgeServer } from './forge-server.js'

const TOKEN = 'ghs_TOKEN-MUST-NOT-LEAK-4f7a'
const HEAD = 'a'.repeat(40)

let server: ForgeServer
let dir: string
let store: string

const FLIPPED = [0, 1, 2, 4, 5, 6, 7, 8, 9, 11]

/** A run of `capitals` in which ten cases flip to fail, with a target model that carries markup. */
function worseRun(createdAt: string): RunDocument {
  const doc = makeRun({ results: 30, createdAt })
  for (const i of FLIPPED)
    doc.results[i] = {
      ...doc.results[i]!,
      verdict: 'fail',
      score: 0,
      passed_samples: 0,
      reason: 'said <b>Lyon</b> @team',
      samples: [{ ...doc.results[i]!.samples[0]!, pass: false, score: 0 }],
    }
  doc.observed = { ...doc.observed, target_model: 'geo\u001b[2J <img src=x> @octo-team [x](https://evil.test) `tick`' }
  const passed = doc.results.filter((r) => r.verdict === 'pass').length
  doc.aggregates = { ...doc.aggregates, passed, failed: 30 - passed, pass_rate: passed / 30, pass_rate_ci95: wilson(passed, 30) ?? null, mean_score: passed / 30 }
  return doc
}

function capture(env: NodeJS.ProcessEnv) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { cwd: dir, env: { NO_COLOR: '1', ...env }, stdout: (t) => out.push(t), stderr: (t) => err.push(t) }
  return { io, out, err }
}

const PROJECT = () => ['--tenant', 'acme', '--store', store]

function gitHubEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: 'acme/evals',
    GITHUB_REF: 'refs/pull/12/merge',
    GITHUB_SHA: HEAD,
    GITHUB_API_URL: server.url,
    GITHUB_WORKSPACE: dir,
    ...extra,
  }
}

async function comment(env: NodeJS.ProcessEnv, args: string[] = []) {
  const c = capture(env)
  const code = await main(['comment', ...PROJECT(), ...args], c.io)
  return { code, stdout: c.out.join('\n'), stderr: c.err.join('\n') }
}

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

const outputs: string[] = []

beforeAll(async () => {
  server = await startForgeServer(TOKEN)
  dir = mkdtempSync(join(tmpdir(), 'digline-comment-'))
  store = join(dir, '.digline')
  const s = openStore({ store })
  const base = makeRun({ results: 30, createdAt: '2026-11-29T10:00:00.000001Z' })
  await s.writeRun(base)
  await promoteFirst(s, base, '2026-11-29T11:00:00.000001Z')
  await s.writeRun(worseRun('2026-11-30T10:00:00.000001Z'))
  await s.close?.()
})

afterAll(async () => {
  await server.close()
  // the token reached the server only as the credential header, and nothing digline wrote or printed holds it
  for (const r of server.received) expect(JSON.stringify({ ...r, credential: undefined })).not.toContain(TOKEN)
  expect(outputs.join('\n')).not.toContain(TOKEN)
  for (const file of filesUnder(dir)) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN)
})

describe('digline comment on GitHub', () => {
  test('first run creates the comment and a check run with one annotation per regressed case; the next run edits the same comment', async () => {
    // someone quoting the marker mid-comment does not own the thread
    server.threads.set(12, [{ id: 1, body: 'looks good; see <!-- digline:comment set=all --> below', user: { login: 'ana', type: 'User' } }])
    const first = await comment(gitHubEnv({ DIGLINE_REPORT_URL: 'https://ci.test/artifacts/9(1)' }))
    outputs.push(first.stdout, first.stderr)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('created the comment on pull request acme/evals#12 (set all, exit 1 over 1 suite(s))')
    expect(first.stdout).toContain('created the check run with 10 annotation(s)')
    const thread = server.threads.get(12)!
    expect(thread).toHaveLength(2)
    const body = thread[1]!.body
    expect(body.startsWith('<!-- digline:comment set=all -->\n## digline: exit 1')).toBe(true)
    expect(body).toContain('### `capitals`: regressed')
    expect(body).toMatch(/\*\*Paired difference of pass rates:\*\* −33\.3 points, 95% interval \[−51\.2, −12\.8\] over 30 shared cases/)
    expect(body).toContain('**Regressed:** pass rate −33.3 points over 30 shared cases, 95% interval [−51.2, −12.8]: the whole interval')
    expect(body).toContain('**pass → fail (10)**: `case-00000`, `case-00001`, `case-00002`, `case-00004`')
    // the report link, with the parenthesis that would end the link encoded
    expect(body).toContain('[open the digline report](https://ci.test/artifacts/9%281%29)')
    // text from the target is literal markdown: no tag, image, link, mention or control character
    expect(body).toContain('geo\\x1b[2J \\<img src=x\\> \\@octo-team [x\\](https://evil.test) \\`tick\\`')
    expect(body).not.toMatch(/[\u0000-\u0008\u001b]|(?<!\\)<img|(?<!\\)@octo-team/)

    expect(server.checkRuns).toHaveLength(1)
    const check = server.checkRuns[0]!.body as {
      name: string
      head_sha: string
      conclusion: string
      output: { title: string; summary: string; annotations: Record<string, unknown>[] }
    }
    expect(check).toMatchObject({ name: 'digline', head_sha: HEAD, status: 'completed', conclusion: 'failure' })
    expect(check.output.summary).not.toContain('<!-- digline:comment')
    expect(check.output.annotations.map((a) => a.title)).toEqual(FLIPPED.map((i) => `capitals: case-${String(i).padStart(5, '0')} passed in the baseline and fails now`))
    // no suite file is known without a Vitest config: the annotation points at the committed baseline
    expect(check.output.annotations[0]).toMatchObject({ path: '.digline/acme/baselines/capitals.json', start_line: 1, end_line: 1, annotation_level: 'failure' })
    expect(check.output.annotations[0]!.message).toContain('said <b>Lyon</b> @team')

    // the next push: a new run; the same comment is edited, no second one is made
    const s = openStore({ store })
    const again = worseRun('2026-11-30T12:00:00.000001Z')
    await s.writeRun(again)
    await s.close?.()
    const second = await comment(gitHubEnv())
    outputs.push(second.stdout, second.stderr)
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(`updated the comment on pull request acme/evals#12`)
    expect(server.threads.get(12)).toHaveLength(2)
    expect(server.threads.get(12)![1]!.body).toContain(`\`${keyOf(again)}\``)
    expect(server.received.filter((r) => r.method === 'POST' && r.url.includes('/issues/12/comments'))).toHaveLength(1)
    expect(server.received.filter((r) => r.method === 'PATCH' && r.url.endsWith(`/issues/comments/${thread[1]!.id}`))).toHaveLength(1)
    // another suite set gets its own comment
    const other = await comment(gitHubEnv(), ['--suite', 'capitals'])
    expect(other.stdout).toContain('created the comment on pull request acme/evals#12 (set capitals')
    expect(server.threads.get(12)).toHaveLength(3)
  })

  test('the pull request and its head commit come from the event payload', async () => {
    const event = join(dir, 'event.json')
    writeFileSync(event, JSON.stringify({ pull_request: { number: 31, head: { sha: 'b'.repeat(40) } } }))
    const r = await comment(gitHubEnv({ GITHUB_REF: 'refs/heads/feature', GITHUB_EVENT_PATH: event, GITHUB_SHA: 'c'.repeat(40) }), ['--set', 'nightly'])
    outputs.push(r.stdout, r.stderr)
    expect(r.code).toBe(0)
    expect(server.threads.get(31)![0]!.body.startsWith('<!-- digline:comment set=nightly -->')).toBe(true)
    expect(server.checkRuns.at(-1)!.body).toMatchObject({ name: 'digline (nightly)', head_sha: 'b'.repeat(40) })
  })

  test("a fork's pull request (a read-only token) is told plainly and exits 0", async () => {
    server.readOnly = true
    const before = server.threads.get(12)!.map((n) => n.body)
    const r = await comment(gitHubEnv())
    server.readOnly = false
    outputs.push(r.stdout, r.stderr)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      'the token may not write to pull request acme/evals#12 (Resource not accessible by integration). A pull request from a fork gets a read-only token; nothing was posted',
    )
    expect(r.stdout).toContain('may not create a check run')
    expect(server.threads.get(12)!.map((n) => n.body)).toEqual(before)
  })

  test('bad credentials are a failure (exit 2) that names the forge’s answer, not the token', async () => {
    const r = await comment(gitHubEnv({ GITHUB_TOKEN: 'ghs_wrong' }))
    outputs.push(r.stdout, r.stderr)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('PublishFailedError: digline comment: posting the comment to acme/evals#12 failed (HTTP 401: Bad credentials)')
    expect(r.stderr).not.toContain('ghs_wrong')
  })

  test('no token, or no pull request: refused (64) with a next step that works; nothing is sent', async () => {
    const sent = server.received.length
    const noToken = await comment(gitHubEnv({ GITHUB_TOKEN: '' }))
    expect(noToken.code).toBe(64)
    expect(noToken.stderr).toContain('PublishTokenMissingError: digline comment: GITHUB_TOKEN is not set')
    expect(noToken.stderr).toContain('`digline comment --dry-run`')
    const notPr = await comment(gitHubEnv({ GITHUB_REF: 'refs/heads/main' }))
    expect(notPr.code).toBe(64)
    expect(notPr.stderr).toContain('NotAPullRequestError: digline comment: this job is not for a pull request')
    expect(server.received.length).toBe(sent)
    const dry = await comment(gitHubEnv({ GITHUB_TOKEN: '', GITHUB_REF: 'refs/heads/main' }), ['--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout.startsWith('<!-- digline:comment set=all -->\n## digline: exit 1')).toBe(true)
    expect(dry.stdout).toContain('10 regressed case(s) would be annotated')
    expect(server.received.length).toBe(sent)
  })
})

describe('digline comment on GitLab', () => {
  const gitLabEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    GITLAB_CI: 'true',
    GITLAB_TOKEN: TOKEN,
    CI_API_V4_URL: `${server.url}/api/v4`,
    CI_PROJECT_ID: 'acme/evals',
    CI_MERGE_REQUEST_IID: '5',
    CI_COMMIT_SHA: HEAD,
    ...extra,
  })

  test('one merge-request note, edited in place on the next run; a read-only token exits 0; no token is refused', async () => {
    const first = await comment(gitLabEnv())
    outputs.push(first.stdout, first.stderr)
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('created the note on merge request !5 of project acme/evals')
    const posted = server.received.filter((r) => r.method === 'POST')
    expect(posted.at(-1)!.url).toBe('/api/v4/projects/acme%2Fevals/merge_requests/5/notes')
    expect(posted.at(-1)!.credential).toBe(TOKEN)
    const second = await comment(gitLabEnv())
    expect(second.stdout).toContain('updated the note on merge request !5')
    expect(server.threads.get(5)).toHaveLength(1)
    expect(server.threads.get(5)![0]!.body).toContain('### `capitals`: regressed')

    server.readOnly = true
    const fork = await comment(gitLabEnv())
    server.readOnly = false
    outputs.push(fork.stdout, fork.stderr)
    expect(fork.code).toBe(0)
    expect(fork.stdout).toContain('the token may not write to merge request !5 of project acme/evals (403 Forbidden)')

    const noToken = await comment(gitLabEnv({ GITLAB_TOKEN: '' }))
    expect(noToken.code).toBe(64)
    expect(noToken.stderr).toContain('PublishTokenMissingError: digline comment: GITLAB_TOKEN is not set')
    const notMr = await comment(gitLabEnv({ CI_MERGE_REQUEST_IID: '' }))
    expect(notMr.code).toBe(64)
    expect(notMr.stderr).toContain('NotAPullRequestError')
  })
})

describe('many regressed cases', () => {
  test('more than 50 annotations go in updates of the same check run', async () => {
    const s = openStore({ store })
    const base = makeRun({ suite: 'wide', results: 70, createdAt: '2026-11-29T10:00:00.000001Z' })
    await s.writeRun(base)
    await promoteFirst(s, base, '2026-11-29T11:00:00.000001Z')
    const worse = makeRun({ suite: 'wide', results: 70, createdAt: '2026-11-30T10:00:00.000001Z' })
    worse.results = worse.results.map((r) => ({ ...r, verdict: 'fail', score: 0, passed_samples: 0, samples: [{ ...r.samples[0]!, pass: false, score: 0 }] }))
    worse.aggregates = { ...worse.aggregates, passed: 0, failed: 70, pass_rate: 0, pass_rate_ci95: wilson(0, 70) ?? null, mean_score: 0 }
    await s.writeRun(worse)
    await s.close?.()
    const r = await comment(gitHubEnv(), ['--suite', 'wide'])
    outputs.push(r.stdout, r.stderr)
    expect(r.code).toBe(0)
    const flipped = base.results.filter((x) => x.verdict === 'pass').length
    expect(r.stdout).toContain(`created the check run with ${flipped} annotation(s)`)
    const run = server.checkRuns.at(-1)!
    const batches = [(run.body.output as { annotations: unknown[] }).annotations, ...run.updates.map((u) => (u.output as { annotations: unknown[] }).annotations)]
    expect(batches.map((b) => b.length)).toEqual([50, flipped - 50])
    expect(run.body).toMatchObject({ name: 'digline (wide)' })
  })
})

describe('the parts', () => {
  test("a regressed case's annotation points at the line of its suite file that names it", () => {
    mkdirSync(join(dir, 'evals'), { recursive: true })
    const file = join(dir, 'evals', 'capitals.eval.ts')
    writeFileSync(
      file,
      [
        "import { evalSuite } from 'digline'",
        '',
        'evalSuite({',
        "  name: 'capitals',",
        "  cases: [{ id: 'fr', input: 'France' }, { id: \"de\", input: 'Germany' }],",
        '})',
        '',
      ].join('\n'),
    )
    expect(locateInSuiteFile(file, 'de', dir)).toEqual({ path: 'evals/capitals.eval.ts', line: 5 })
    expect(locateInSuiteFile(file, 'from-a-dataset', dir)).toEqual({ path: 'evals/capitals.eval.ts', line: 3 })
    expect(locateInSuiteFile(file, 'de', join(dir, 'elsewhere'))).toBeUndefined()
  })

  test('markdownText leaves plain text alone and makes markup literal', () => {
    expect(markdownText('pass rate −30.0 points (tolerance 5.0 points)')).toBe('pass rate −30.0 points (tolerance 5.0 points)')
    expect(markdownText('a\\<b> #12 | *x* ~y~ &amp; \\x')).toBe('a\\\\\\<b\\> \\#12 \\| \\*x\\* \\~y\\~ \\&amp; \\x')
    expect(markdownText('two\nlines\u0007')).toBe('two lines\\x07')
  })
})
