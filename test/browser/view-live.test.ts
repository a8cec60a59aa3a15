// `digline view` as a person meets it: the page on 127.0.0.1 follows a run while it runs (cases
// appear as the journal records them), then shows the finished run; it writes nothing, answers
// nothing but GET, and refuses to listen anywhere but 127.0.0.1.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium, screenshot, watchedPage } from '../helpers/browser.js'
import { makeProject } from '../helpers/project.js'

// Cases c000 and c001 answer at once; the others wait until the test creates the file `go`.
const SLOW = `import { evalSuite, scorers } from 'digline'
import { existsSync } from 'node:fs'

evalSuite({
  name: 'slow',
  cases: Array.from({ length: 6 }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: 'ok-' + i })),
  target: {
    config: { model: 'gate-v1' },
    async ask(i) {
      if (i >= 2) while (!existsSync('go')) await new Promise((r) => setTimeout(r, 50))
      return { output: 'ok-' + i, model: 'gate-v1' }
    },
  },
  scorers: [scorers.exact()],
  concurrency: 6,
})
`

let browser: Browser

beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

/** The status of a GET of URL sent with another Host header (as a DNS-rebound page would send it). */
function statusFor(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Every file under DIR with its size and modification time. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((f) => {
      const s = statSync(join(dir, f))
      return `${f} ${s.size} ${s.mtimeMs}`
    })
}

test('digline view follows a run from its journal, then shows it finished; GET only, nothing written', { timeout: 180_000 }, async () => {
  const project = makeProject({ 'evals/slow.eval.ts': SLOW })
  const view = project.spawnDigline(['view', '--port', '0'])
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    view.stdout!.on('data', (d) => {
      out += d
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)
      if (match) resolve(match[1]!)
    })
    view.once('close', () => reject(new Error(`digline view ended: ${out}`)))
  })
  const run = project.spawnVitest()
  try {
    const { page, requests, errors } = await watchedPage(browser)
    await page.goto(url)
    const live = page.locator('[data-live^="slow/"]')
    await expect.poll(() => live.locator('.progress').textContent(), { timeout: 90_000, interval: 250 }).toMatch(/^2 of 6 cases finished · run \d{8}T\d{12}Z-[0-9a-f]{12}/)
    expect(await live.locator('.status').textContent()).toBe('running')
    expect(await live.locator('table.cases td.id').allTextContents()).toEqual(['c000', 'c001'])
    await screenshot(page, 'view-live.png')

    writeFileSync(join(project.dir, 'go'), '')
    const done = await run.done
    expect(done.code, done.stdout + done.stderr).toBe(0)
    const slow = page.locator('[data-suite="slow"]')
    await expect.poll(() => slow.locator('.rate').textContent(), { timeout: 30_000, interval: 250 }).toBe('100.0%')
    expect(await live.count()).toBe(0)
    expect(await slow.locator('table.cases tbody tr').count()).toBe(6)
    await screenshot(page, 'view-finished.png')

    // read-only: the store is the same after more reads, and only GET and HEAD are answered
    const before = tree(join(project.dir, '.digline'))
    await page.reload()
    await expect.poll(() => slow.locator('.rate').textContent()).toBe('100.0%')
    const posted = await fetch(url, { method: 'POST', body: 'x' })
    expect(posted.status).toBe(405)
    expect(posted.headers.get('allow')).toBe('GET, HEAD')
    const elsewhere = await fetch(`${url}../.digline/acme/baselines/slow.json`)
    expect(elsewhere.status).toBe(404)
    expect(await statusFor(url, 'attacker.example')).toBe(421)
    expect(await statusFor(url, new URL(url).host)).toBe(200)
    expect(tree(join(project.dir, '.digline'))).toEqual(before)

    expect(errors).toEqual([])
    expect(requests.length).toBeGreaterThan(2)
    expect(requests.filter((r) => r !== url && r !== `${url}data.json`)).toEqual([])
  } finally {
    if (run.exitCode === null) run.kill('SIGKILL')
    view.kill('SIGTERM')
  }
  const stopped = await view.done
  expect(stopped.code).toBe(0)
  expect(stopped.stdout).toContain('digline view: stopped')
})

test('digline view refuses any host but 127.0.0.1, and a suite name the store refuses, before it listens', { timeout: 60_000 }, async () => {
  const project = makeProject()
  const refused = await project.digline(['view', '--host', '0.0.0.0', '--port', '0'])
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('refused ViewHostRefusedError: digline view serves 127.0.0.1 only; --host 0.0.0.0 was refused, and nothing was started')
  expect(refused.stderr).toContain('next: Run `digline view --port 0`')
  expect(refused.stdout).toBe('')
  expect(existsSync(join(project.dir, '.digline'))).toBe(false)
  const badSuite = await project.digline(['view', '--port', '0', '--suite', '../etc'])
  expect(badSuite.code).toBe(64)
  expect(badSuite.stderr).toContain('refused PathRefusedError')
  expect(badSuite.stdout).toBe('')
})
