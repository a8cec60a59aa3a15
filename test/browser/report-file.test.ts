// `digline report` as a person meets it: the file opened from disk in Chromium, offline. What they
// see: the pass rate and its interval, the flipped cases (a filter shrinks the matrix), an errored
// case's message, no answers where none were recorded; and the page asks for nothing at all.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium, screenshot, watchedPage } from '../helpers/browser.js'
import { makeProject, type Project } from '../helpers/project.js'
import { runReportSuites } from '../helpers/report-suites.js'

let browser: Browser
let project: Project
let worseKey: string

beforeAll(async () => {
  project = makeProject()
  worseKey = await runReportSuites(project)
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close()
})

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

test('the report file: pass rate and interval, flipped cases, errors, no unrecorded answers, zero requests', { timeout: 120_000 }, async () => {
  const summary = join(project.dir, 'summary.md')
  const made = await project.digline(['report', '--out', 'out/report.html'], { GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: project.dir })
  expect(made.code, made.stdout + made.stderr).toBe(0)
  const file = join(project.dir, 'out', 'report.html')
  expect(made.stdout).toContain(`to ${file}`)
  const html = readFileSync(file, 'utf8')
  // the answers of a run that did not record them are nowhere in the file
  expect(html).not.toContain('WRONG-ANSWER')
  expect(html).toContain('RECORDED-ANSWER-2')
  expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="(?!data:)/)
  expect(statSync(file).size).toBeLessThan(200_000)

  const md = readFileSync(summary, 'utf8')
  expect(md).toContain('```mermaid\nxychart-beta')
  expect(md).toMatch(/line \[100, 72\.7\]/)
  expect(md).toContain('**Report:** `out/report.html`')

  const doc = JSON.parse(project.read(`.digline/acme/runs/triage/${worseKey}.json`))
  const { pass_rate: rate, pass_rate_ci95: ci } = doc.aggregates

  const { page, requests, errors } = await watchedPage(browser)
  const url = pathToFileURL(file).href
  await page.goto(url)
  const triage = page.locator('[data-suite="triage"]')
  await expect.poll(() => triage.locator('.rate').textContent()).toBe(pct(rate))
  expect(rate).toBeCloseTo(8 / 11, 9)
  expect(await triage.locator('.ci').first().textContent()).toBe(`95% interval ${pct(ci.low)} – ${pct(ci.high)}`)
  expect(await triage.locator('.status').first().textContent()).toBe('not judged: a case errored')
  expect(await triage.locator('p.difference').first().textContent()).toMatch(/^pass rate: −27\.3 points, 95% interval \[.+\] over 11 shared cases; tolerance −5\.0 points$/)
  expect(await triage.locator('line.tolerance').count()).toBe(1)

  // the errored case, with its cause and message
  expect(await triage.locator('ul.errored li').allTextContents()).toEqual(['c007 (target): sample 0 of 3: target down: connection reset by peer'])

  // the matrix: every case, then only the flipped ones
  const rows = triage.locator('table.cases tbody tr')
  expect(await rows.count()).toBe(12)
  expect(await triage.locator('[data-cell="pass-pass"]').textContent()).toBe('8')
  expect(await triage.locator('[data-cell="pass-fail"]').textContent()).toBe('3')
  expect(await triage.locator('[data-cell="pass-error"]').textContent()).toBe('1')
  await triage.locator('select[name="flip"]').selectOption('flipped')
  await expect.poll(() => rows.count()).toBe(3)
  expect(await rows.locator('td.id').allTextContents()).toEqual(['c001', 'c004', 'c010'])
  expect(await triage.locator('[data-cell="pass-pass"]').textContent()).toBe('0')
  expect(await triage.locator('[data-cell="pass-fail"]').textContent()).toBe('3')
  expect(await triage.locator('tr[data-case="c010"] .samples').getAttribute('title')).toBe('sample 0: pass, sample 1: fail, sample 2: pass')
  await screenshot(page, 'report-file-flipped.png')
  // search by id, then a verdict filter, offline
  await triage.locator('select[name="flip"]').selectOption('all')
  await triage.locator('input[type="search"]').fill('c00')
  await expect.poll(() => rows.count()).toBe(10)
  await triage.locator('select[name="verdict"]').selectOption('error')
  await expect.poll(() => rows.locator('td.id').allTextContents()).toEqual(['c007'])

  // no answers where none were recorded; the recorded ones where they were
  expect(await triage.locator('.note').first().textContent()).toContain('did not record answers')
  // the reason the terminal printed (unquoted) and each scorer's own score per sample, recorded or not
  const c010 = (doc.results as { case_id: string; reason: string; samples: { scorers: { name: string; score: number; pass: boolean }[] }[] }[]).find((r) => r.case_id === 'c010')!
  expect(c010.reason).toMatch(/^2\/3 samples passed; sample 1, exact: /)
  await triage.locator('select[name="verdict"]').selectOption('all')
  await triage.locator('input[type="search"]').fill('c010')
  await expect.poll(() => rows.count()).toBe(1)
  const details = triage.locator('tr[data-case="c010"] details')
  expect(await details.locator('summary').textContent()).toBe('reason and scores')
  expect(await details.locator('.reason').textContent()).toBe(`reason ${c010.reason}`)
  const scorerCells = await details.locator('.scorer').allTextContents()
  expect(scorerCells).toHaveLength(3)
  expect(scorerCells[0]).toBe('exact 1.00 pass')
  expect(scorerCells[1]).toMatch(/^exact 0\.00 fail: /)
  expect(scorerCells[2]).toBe('exact 1.00 pass')
  expect(await triage.locator('tr[data-case="c010"] .answer').count()).toBe(0)
  const answers = page.locator('[data-suite="answers"]')
  expect(await answers.locator('.answer').allTextContents()).toEqual(['answer 0 yes-0', 'answer 0 yes-1', 'answer 0 RECORDED-ANSWER-2'])
  expect(await page.content()).not.toContain('WRONG-ANSWER')

  // the history: both runs, the baseline's ringed
  expect(await triage.locator('svg.history circle').count()).toBe(2)
  expect(await triage.locator('table.register tr').count()).toBe(2)

  await triage.locator('select[name="verdict"]').selectOption('all')
  await triage.locator('input[type="search"]').fill('')
  await screenshot(page, 'report-file.png')
  expect(errors).toEqual([])
  expect(requests.filter((r) => r !== url)).toEqual([])
})

test('a named run of one suite; a run key with several suites refused; a file that cannot be written exits 2 and names it', { timeout: 120_000 }, async () => {
  const named = await project.digline(['report', '--suite', 'triage', '--run', worseKey, '--out', 'named.html'])
  expect(named.code, named.stdout + named.stderr).toBe(0)
  expect(named.stdout).toContain('Wrote the report of 1 suite(s)')
  expect(project.read('named.html')).toContain(worseKey)
  expect(project.read('named.html')).not.toContain('"suite":"answers"')

  const two = await project.digline(['report', '--suite', 'triage', '--suite', 'answers', '--run', worseKey])
  expect(two.code).toBe(64)
  expect(two.stderr).toContain(`refused RunNotFoundError: --run ${worseKey} names one run, but 2 suites were chosen`)

  const blocked = await project.digline(['report', '--out', 'evals'])
  expect(blocked.code).toBe(2)
  expect(blocked.stderr).toContain(`failed ReportWriteError: the report could not be written to ${join(project.dir, 'evals')}`)
})

test('report --run A --against B: run B in the baseline place, named so, with both runs identified', { timeout: 120_000 }, async () => {
  const firstKey = project.runFiles('acme', 'triage')[0]!.replace(/\.json$/, '')
  const made = await project.digline(['report', '--suite', 'triage', '--run', firstKey, '--against', worseKey, '--out', 'against.html'])
  expect(made.code, made.stdout + made.stderr).toBe(0)
  const file = join(project.dir, 'against.html')
  const { page, requests, errors } = await watchedPage(browser)
  await page.goto(pathToFileURL(file).href)
  const triage = page.locator('[data-suite="triage"]')
  await expect.poll(() => triage.locator('.status').first().textContent()).toBe('holds')
  expect(await triage.locator('h3').allTextContents()).toEqual(expect.arrayContaining(['Run A against run B', 'Run A', 'Run B (compared against)']))
  expect(await triage.locator('p.against').textContent()).toBe(
    `Run ${firstKey} against run ${worseKey} (created 2026-11-30T10:00:00.000001Z), over the 11 cases both judged: pass rate 72.7% in B, 100.0% in A.`,
  )
  expect(await triage.locator('p.difference').first().textContent()).toMatch(/^pass rate: \+27\.3 points, 95% interval \[.+\] over 11 shared cases; tolerance −5\.0 points$/)
  expect(await triage.locator('table.cases thead th').nth(1).textContent()).toBe('run B')
  expect(await triage.locator('[data-cell="fail-pass"]').textContent()).toBe('3')
  expect(await triage.locator('[data-cell="error-pass"]').textContent()).toBe('1')
  expect(await triage.locator('.identity td').allTextContents()).toEqual(expect.arrayContaining([firstKey, worseKey]))
  await screenshot(page, 'report-against.png')
  expect(errors).toEqual([])
  expect(requests.filter((r) => r !== pathToFileURL(file).href)).toEqual([])

  const two = await project.digline(['report', '--run', 'latest', '--against', worseKey])
  expect(two.code).toBe(64)
  expect(two.stderr).toContain(`refused RunNotFoundError: --against ${worseKey} names a run of one suite, but 2 suites were chosen`)
})
