// Chromium for the browser tests, driven by playwright-core: Debian's build at /usr/bin/chromium,
// headless, with its own background traffic turned off so every request counted is the page's.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

export const CHROMIUM = process.env.DIGLINE_CHROMIUM ?? '/usr/bin/chromium'
/** Screenshots of the pages the tests saw (gitignored; CI keeps them as artifacts). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts')

/** `extraArgs`: more Chromium switches (e.g. --host-resolver-rules, to give a test host name to 127.0.0.1). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Playwright's own signal handlers kept the test worker from ending when the pool stopped it
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extraArgs],
  })
}

export interface WatchedPage {
  page: Page
  /** Every request the page made, by URL. */
  requests: string[]
  /** Console errors and uncaught exceptions. */
  errors: string[]
}

export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (r) => requests.push(r.url()))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(String(e)))
  return { page, requests, errors }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const path = join(ARTIFACTS, name)
  await page.screenshot({ path, fullPage: true })
  return path
}
