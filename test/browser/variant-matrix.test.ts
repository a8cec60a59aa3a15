// The report's variant matrix as a person meets it, in Chromium from file://: the variants × metrics
// table, each with its interval, and every pair's verdict, for three variants whose differences are
// known (test/helpers/variant-suite.ts).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium, watchedPage } from '../helpers/browser.js'
import { makeProject, type Project } from '../helpers/project.js'
import { pickSuite } from '../helpers/variant-suite.js'

let browser: Browser
let project: Project

beforeAll(async () => {
  project = makeProject({ 'evals/pick.eval.ts': pickSuite() })
  const run = await project.vitest([], { DIGLINE_CREATED_AT: '2026-12-03T10:00:00.000001Z' })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close()
})

test('the variant matrix: each variant’s pass rate and mean score with its interval, and the verdict of every pair', { timeout: 120_000 }, async () => {
  const made = await project.digline(['report', '--out', 'report.html'])
  expect(made.code, made.stdout + made.stderr).toBe(0)
  const { page, requests, errors } = await watchedPage(browser)
  const url = pathToFileURL(join(project.dir, 'report.html')).href
  await page.goto(url)
  const matrix = page.locator('[data-variants="pick"]')
  await expect.poll(() => matrix.locator('h2').textContent()).toBe('Variants of pick')
  const cells = (variant: string) => matrix.locator(`tr[data-variant="${variant}"] td`).allTextContents()
  const weak = await cells('weak')
  expect(weak[0]).toMatch(/^50\.0% \[\d+\.\d%, \d+\.\d%\]$/)
  expect(weak[1]).toMatch(/^0\.500 \[0\.\d{3}, 0\.\d{3}\]$/)
  expect((await cells('strong'))[0]).toMatch(/^90\.0% \[/)
  expect(await matrix.locator('tr[data-variant]').count()).toBe(3)
  const verdict = (pair: string) => matrix.locator(`tr[data-pair="${pair}"] td.verdict`).textContent()
  // the report lists a suite's variants in the order they were declared: weak, strong, twin (ADR 0415)
  expect(await matrix.locator('tr[data-variant]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-variant')))).toEqual(['weak', 'strong', 'twin'])
  expect(await verdict('weak/strong')).toBe('strong is better')
  expect(await verdict('weak/twin')).toBe('no difference shown')
  expect(await verdict('strong/twin')).toBe('strong is better')
  expect(await matrix.locator('tr[data-pair="weak/strong"] td').allTextContents()).toEqual([
    'weak − strong',
    expect.stringMatching(/^−40\.0 \[/),
    '0 / 24 of 60',
    'strong is better',
  ])
  expect(await matrix.locator('h3').textContent()).toContain('98.33% intervals (95% shared by 3 pairs, Bonferroni)')
  expect(requests.filter((r) => r !== url)).toEqual([])
  expect(errors).toEqual([])
})
