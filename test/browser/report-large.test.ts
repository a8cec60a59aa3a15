// The report of a run of 100,000 cases in Chromium (ADR 0395): the cases table draws only the rows
// of its scrolled window, scrolling shows the rows that belong there, a search finds the case at row
// 99,000 at once, its details open, and the keyboard scrolls the table to its end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { reportData } from '../../src/host/index.js'
import { renderPage } from '../../src/report/index.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { launchChromium, screenshot, watchedPage } from '../helpers/browser.js'
import { makeRun } from '../helpers/make-run.js'

const CASES = 100_000
let dir: string
let file: string
let browser: Browser

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'digline-large-report-'))
  const store = new FileResultStore({ root: join(dir, '.digline') })
  await store.writeRun(makeRun({ results: CASES }))
  const data = await reportData(store, { tenant: 'acme', suites: [], run: 'latest' })
  await store.close()
  file = join(dir, 'report.html')
  writeFileSync(file, renderPage(data))
  browser = await launchChromium()
}, 300_000)
afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

const id = (i: number) => `case-${String(i).padStart(5, '0')}`
// In the page's own words (a string): this file is typed without the DOM's names.
const nextFrame = (page: Page) => page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))')

/** The case of the first row whose top is in sight below the sticky header. */
function firstInSight(page: Page): Promise<string | null> {
  return page.evaluate(`(() => {
    const box = document.querySelector('[data-suite="capitals"] .case-scroll')
    const head = box.querySelector('thead th').getBoundingClientRect().bottom
    const row = [...box.querySelectorAll('tbody tr.case')].find((r) => r.getBoundingClientRect().top >= head - 1)
    return row ? row.getAttribute('data-case') : null
  })()`)
}

test('100,000 cases: a window of rows drawn, scrolling shows the right ones, a search finds row 99,000, its details open, End reaches the last', { timeout: 300_000 }, async () => {
  const { page, errors, requests } = await watchedPage(browser)
  await page.goto(pathToFileURL(file).href, { timeout: 120_000 })
  const suite = page.locator('[data-suite="capitals"]')
  await expect.poll(() => suite.locator('.count').textContent(), { timeout: 120_000 }).toBe(`${CASES} of ${CASES} cases`)
  const drawn = () => suite.locator('table.cases tbody tr.case').count()
  expect(await drawn()).toBeLessThan(200)
  expect(await firstInSight(page)).toBe(id(0))

  // scrolled to half a row above row 50,000: the first row wholly in sight is 50,000
  const rowHeight = await suite
    .locator('tr.case')
    .first()
    .evaluate((r) => r.getBoundingClientRect().height)
  await suite.locator('.case-scroll').evaluate(
    (box, y) => {
      box.scrollTop = y
    },
    50_000 * rowHeight - rowHeight / 2,
  )
  await nextFrame(page)
  await nextFrame(page)
  expect(await firstInSight(page)).toBe(id(50_000))
  expect(await drawn()).toBeLessThan(200)
  await screenshot(page, 'report-large-scrolled.png')

  // a search finds the case at row 99,000
  await suite.locator('input[type=search]').fill(id(99_000))
  await expect.poll(() => suite.locator('.count').textContent()).toBe(`1 of ${CASES} cases`)
  expect(await suite.locator('tbody tr.case').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-case')))).toEqual([id(99_000)])
  // and its details open, with its scores
  const row = suite.locator(`tr[data-case="${id(99_000)}"]`)
  await row.locator('details summary').click()
  expect(await row.locator('details').getAttribute('open')).not.toBeNull()
  expect(await row.locator('.scorer').allTextContents()).toEqual(['exact 1.00 pass'])

  // the filter cleared, the keyboard scrolls the table to its last case
  await suite.locator('input[type=search]').fill('')
  await expect.poll(() => suite.locator('.count').textContent()).toBe(`${CASES} of ${CASES} cases`)
  await suite.locator('.case-scroll').focus()
  await page.keyboard.press('End')
  await expect.poll(() => suite.locator(`tr[data-case="${id(CASES - 1)}"]`).count(), { timeout: 30_000 }).toBe(1)
  await expect(suite.locator(`tr[data-case="${id(CASES - 1)}"]`).isVisible()).resolves.toBe(true)
  expect(await drawn()).toBeLessThan(200)
  expect(errors).toEqual([])
  expect(requests.filter((u) => u !== pathToFileURL(file).href)).toEqual([])
  await page.close()
})
