// `digline view --review` as a person meets it, and as an attacker's page meets it: a label made in
// Chromium is appended to the store as a review record; the page's own bad labels are refused by
// name (HTTP 4xx); a second origin (another loopback server, another host name for 127.0.0.1) can
// neither post a label nor read the token; `digline review list|export` give the labels back
// through the real bin, as dataset files dataset() reads; a run's delete takes its labels along.
// The other export formats, the usage refusals and the delete call the CLI's main() in-process
// (the same code the bin runs; each of review list, review export and view still goes through the bin).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { readDataset } from '../../src/suite/dataset.js'
import { launchChromium, screenshot, watchedPage } from '../helpers/browser.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'

const REVIEWER = 'ana@example.com'
const SUITE = countingSuite({ name: 'labelled', cases: 5, answer: "i === 1 ? 'wrong' : 'ok-' + i", extra: 'recordResponses: true,' })

let browser: Browser
let project: Project
let attacker: Server
let attackerPort: number
let key: string

beforeAll(async () => {
  browser = await launchChromium(['--host-resolver-rules=MAP rebound.test 127.0.0.1'])
  project = makeProject({ 'evals/labelled.eval.ts': SUITE })
  const run = await project.vitest()
  expect(run.stdout + run.stderr).toContain('labelled')
  key = project.runFiles('acme', 'labelled')[0]!.slice(0, -'.json'.length)
  // The second origin: whatever page a test puts in `attackPage`, on another loopback port.
  attacker = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(attackPage)
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  attackerPort = (attacker.address() as AddressInfo).port
}, 180_000)

afterAll(async () => {
  await browser?.close()
  attacker?.closeAllConnections()
  await new Promise((resolve) => attacker?.close(resolve))
})

let attackPage = '<!doctype html><p>nothing yet</p>'

function startView(env: NodeJS.ProcessEnv) {
  const view = project.spawnDigline(['view', '--review', '--port', '0'], env)
  let out = ''
  let err = ''
  view.stderr!.on('data', (d) => (err += d))
  const url = new Promise<string>((resolve, reject) => {
    view.stdout!.on('data', (d) => {
      out += d
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)
      if (match) resolve(match[1]!)
    })
    view.once('close', () => reject(new Error(`digline view ended: ${out}${err}`)))
  })
  return { view, url, stdout: () => out, stderr: () => err }
}

/** POSTs a label from inside the page; `token` undefined: the page's own. */
function postFromPage(page: Page, body: unknown, options: { token?: string | null; type?: string } = {}) {
  return page.evaluate(
    async ({ body, token, type }) => {
      const page = globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
      const own = (JSON.parse(page.document.getElementById('digline-config').textContent) as { review: { token: string } }).review.token
      const headers: Record<string, string> = { 'content-type': type ?? 'application/json' }
      if (token !== null) headers['x-digline-token'] = token ?? own
      const res = await fetch('/reviews', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
      const answer = (await res.json()) as { refusal?: { name: string; message: string } }
      return { status: res.status, name: answer.refusal?.name, message: answer.refusal?.message ?? '' }
    },
    { body, token: options.token, type: options.type },
  )
}

/** `digline …` through the CLI's main() in the project's directory. */
async function inProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    cwd: project.dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' },
    stdout: (text) => void (stdout += `${text}\n`),
    stderr: (text) => void (stderr += `${text}\n`),
  })
  return { code, stdout, stderr }
}

function labels(env: NodeJS.ProcessEnv = {}) {
  return project.digline(['review', 'list', '--suite', 'labelled', '--json'], env)
}

test('a label made in Chromium is kept; the page’s bad labels and every other origin are refused by name', { timeout: 240_000 }, async () => {
  const { view, url, stdout, stderr } = startView({ DIGLINE_REVIEWER: REVIEWER })
  try {
    const viewer = await url
    const { page, errors } = await watchedPage(browser)
    await page.goto(viewer)
    // two polls that bring nothing new but the time they were generated leave the page as it was drawn
    await page.locator('#app > header').evaluate((header) => header.setAttribute('data-drawn', 'first'))
    for (let poll = 0; poll < 2; poll++) await page.waitForResponse((res) => res.url().endsWith('/data.json'))
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)))
    expect(await page.locator('#app > header[data-drawn="first"]').count()).toBe(1)
    const row = page.locator('[data-suite="labelled"] tr.case[data-case="c001"]')
    await row.locator('details.review > summary').click()
    const id = `labelled/${key}/c001`
    await row.locator(`[data-control="review:${id}:verdict"]`).selectOption('fail')
    await row.locator(`[data-control="review:${id}:judge:exact"]`).selectOption('agree')
    await row.locator(`[data-control="review:${id}:note"]`).fill('wrong is wrong')
    await row.locator(`[data-control="review:${id}:save"]`).click()
    await expect.poll(() => row.locator('.review-status').textContent(), { timeout: 30_000 }).toBe('saved')
    await expect.poll(() => row.locator(`li[data-reviewer="${REVIEWER}"]`).textContent(), { timeout: 30_000 }).toBe(`${REVIEWER}: fail (agrees with exact) — wrong is wrong`)
    // the form survived the redraw the new label caused
    expect(await row.locator('details.review').getAttribute('open')).not.toBeNull()
    await screenshot(page, 'view-review.png')
    expect(errors).toEqual([])
    expect(stdout()).toContain(`digline view: ${REVIEWER} labelled case c001 of run ${key} of suite labelled: fail`)

    const good = { suite: 'labelled', run: key, case_id: 'c002', judges: { exact: 'agree' }, verdict: 'pass', note: null }
    const refusals = [
      [await postFromPage(page, good, { token: null }), 403, 'ReviewTokenRefusedError'],
      [await postFromPage(page, good, { token: 'f'.repeat(64) }), 403, 'ReviewTokenRefusedError'],
      [await postFromPage(page, { ...good, note: 'n'.repeat(20_000) }), 413, 'ReviewBodyTooLargeError'],
      [await postFromPage(page, good, { type: 'text/plain' }), 415, 'ReviewRequestRefusedError'],
      [await postFromPage(page, '{"suite":'), 400, 'ReviewRequestRefusedError'],
      [await postFromPage(page, { ...good, reviewer: 'mallory' }), 400, 'ReviewRequestRefusedError'],
      [await postFromPage(page, { ...good, verdict: 'maybe' }), 400, 'InvalidReviewError'],
      [await postFromPage(page, { ...good, judges: { factuality: 'agree' } }), 400, 'UnknownReviewJudgeError'],
      [await postFromPage(page, { ...good, case_id: 'c999' }), 404, 'ReviewCaseNotFoundError'],
      [await postFromPage(page, { ...good, run: '20200101T000000000001Z-0123456789ab' }), 404, 'RunNotFoundError'],
      [await postFromPage(page, { ...good, suite: '../etc' }), 400, 'PathRefusedError'],
    ] as const
    for (const [answer, status, name] of refusals) expect({ status: answer.status, name: answer.name }).toEqual({ status, name })
    expect(refusals[8]![0].message).toContain('the run holds no such case')

    // A second origin on another loopback port: a simple POST reaches the viewer and is refused by
    // its Origin; a JSON POST with a guessed token is stopped by the browser's preflight; the page
    // and its token cannot be read from there; a host name rebound to 127.0.0.1 is refused by Host.
    const viewerPort = new URL(viewer).port
    const label = JSON.stringify(good)
    attackPage = `<!doctype html><script>
      window.results = {}
      const to = (host) => 'http://' + host + ':${viewerPort}/reviews'
      Promise.all([
        fetch(to('127.0.0.1'), { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(label)} }).then(() => 'sent', (e) => 'failed ' + e),
        fetch(to('127.0.0.1'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-digline-token': 'guess' }, body: ${JSON.stringify(label)} }).then((r) => 'answered ' + r.status, (e) => 'blocked'),
        fetch('http://127.0.0.1:${viewerPort}/').then((r) => r.text()).then((t) => 'read ' + t.length, () => 'unreadable'),
        fetch(to('rebound.test'), { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(label)} }).then(() => 'sent', (e) => 'failed ' + e),
      ]).then((r) => { window.results = r })
    </script>`
    const statuses: string[] = []
    for (const host of ['127.0.0.1', 'rebound.test']) {
      const other = await browser.newPage()
      other.on('response', (r) => {
        if (r.url().includes(`:${viewerPort}/`)) statuses.push(`${r.request().method()} ${new URL(r.url()).hostname}${new URL(r.url()).pathname} ${r.status()}`)
      })
      await other.goto(`http://${host}:${attackerPort}/`)
      await expect.poll(() => other.evaluate(() => (globalThis as unknown as { results: unknown }).results), { timeout: 30_000 }).toHaveLength(4)
      expect(await other.evaluate(() => (globalThis as unknown as { results: string[] }).results)).toEqual(['sent', 'blocked', 'unreadable', 'sent'])
      await other.close()
    }
    expect(statuses).toContain('POST 127.0.0.1/reviews 403')
    expect(statuses).toContain('POST rebound.test/reviews 421')
    expect(statuses.filter((s) => s.startsWith('POST 127.0.0.1/reviews') && !s.endsWith('403'))).toEqual([])
    expect(stderr()).toContain('refused a label (403 ReviewOriginRefusedError): refused a label from origin "http://127.0.0.1:')
    expect(stderr()).toContain('refused a label (421 ReviewHostRefusedError)')
    // A page served under the rebound name never gets the token: the viewer does not answer it.
    const rebound = await browser.newPage()
    expect((await rebound.goto(`http://rebound.test:${viewerPort}/`))!.status()).toBe(421)
    await rebound.close()

    const kept = await labels()
    expect(kept.code, kept.stderr).toBe(0)
    const records = kept.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ reviewer: REVIEWER, suite: 'labelled', run: key, case_id: 'c001', verdict: 'fail', judges: { exact: 'agree' }, note: 'wrong is wrong' })
    // the refused labels are the page's only failed loads
    expect(errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d /.test(e))).toEqual([])
  } finally {
    view.kill('SIGTERM')
  }
  expect((await view.done).code).toBe(0)
})

test('digline review list and export give the labels back through the bin, as datasets dataset() reads', { timeout: 120_000 }, async () => {
  const listed = await project.digline(['review', 'list', '--suite', 'labelled', '--run', 'latest'])
  expect(listed.code, listed.stderr).toBe(0)
  expect(listed.stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  ${key}  c001  fail  ${REVIEWER}  \\(agrees with exact\\)  note: wrong is wrong\\n$`))
  for (const file of ['labels.jsonl', 'labels.json', 'labels.csv']) {
    const exported =
      file === 'labels.jsonl'
        ? await project.digline(['review', 'export', '--suite', 'labelled', '--out', file])
        : await inProcess(['review', 'export', '--suite', 'labelled', '--out', file])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain(`1 label of suite labelled`)
    const cases = await readDataset(file, { root: project.dir })
    expect(cases.cases).toHaveLength(1)
    const [row] = cases.cases
    expect(row!.id).toMatch(/^c001\.[0-9a-f]{12}$/)
    expect(row!.tags).toEqual(['human-fail'])
    expect(row!.metadata).toMatchObject({ case_id: 'c001', reviewer: REVIEWER, human_verdict: 'fail', judge_verdict: 'fail', run: key })
    // the run recorded responses, so the case's input and expected value are there (CSV: as text)
    expect([row!.input, row!.expected]).toEqual(file.endsWith('.csv') ? ['1', 'ok-1'] : [1, 'ok-1'])
  }
  const again = await inProcess(['review', 'export', '--suite', 'labelled', '--out', 'labels.jsonl'])
  expect(again.stdout).toContain('Unchanged')
  expect(readFileSync(join(project.dir, 'labels.jsonl'), 'utf8').split('\n')).toHaveLength(2)

  const refused = [
    [await inProcess(['review', 'list', '--suite', 'labelled', '--run', '20200101T000000000001Z-0123456789ab']), 'RunNotFoundError'],
    [await inProcess(['review', 'export', '--suite', 'labelled', '--out', 'labels.txt']), 'UsageError'],
    [await inProcess(['review', 'frob']), 'UsageError'],
  ] as const
  for (const [result, name] of refused) {
    expect(result.code, result.stderr).toBe(64)
    expect(result.stderr).toContain(`refused ${name}`)
  }
  const noReviewer = await project.digline(['view', '--review', '--port', '0'], { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: project.dir })
  expect(noReviewer.code).toBe(64)
  expect(noReviewer.stderr).toContain('refused ReviewerUnknownError')
  expect(noReviewer.stdout).toBe('')

  // The run's delete takes its labels along; the removed run's labels are refused by name after it.
  const deleted = await inProcess(['delete', '--suite', 'labelled', '--run', key])
  expect(deleted.code, deleted.stderr).toBe(0)
  const after = await labels()
  expect(after.stdout).toBe('')
  expect(execFileSync('find', ['.digline', '-path', '*.reviews*', '-type', 'f'], { cwd: project.dir }).toString()).toBe('')
  const gone = await project.digline(['review', 'list', '--suite', 'labelled', '--run', key])
  expect(gone.code).toBe(64)
  expect(gone.stderr).toContain('refused RunRemovedError')
})
