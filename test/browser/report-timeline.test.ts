// The report's trajectory timeline as a person meets it: an agent's run opened from disk in Chromium,
// offline. A case's details list each sample's steps in the order the agent took them, with their
// durations and token counts; a run that recorded answers shows the tool calls' arguments, results
// and errors, one that did not shows their names and durations only, and the file holds none of them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ARTIFACTS, launchChromium, screenshot, watchedPage } from '../helpers/browser.js'
import { makeProject, type Project } from '../helpers/project.js'

// Each case: a model call, a lookup, a weather call (failing for odd inputs), a last model call.
// Every private value carries SECRET so the test can look for it.
const agentSuite = (name: string, record: boolean) => `import { evalSuite, scorers } from 'digline'

evalSuite({
  name: ${JSON.stringify(name)},
  cases: [0, 1, 2].map((i) => ({ id: 'trip-' + i, input: i, expected: 'done' })),
  target: {
    config: { model: 'planner-v1' },
    async ask(i) {
      const weather = i % 2 === 1
        ? { type: 'tool', name: 'weather', arguments: { city: 'SECRET-CITY-' + i }, error: 'SECRET-ERROR no station', latency_ms: 7 }
        : { type: 'tool', name: 'weather', arguments: { city: 'SECRET-CITY-' + i }, result: { sky: 'SECRET-SKY' }, latency_ms: 7 }
      return {
        output: 'done',
        model: 'planner-v1-2026',
        steps: [
          { type: 'model', model: 'planner-v1-2026', usage: { input_tokens: 20 + i, output_tokens: 4 }, latency_ms: 30 },
          { type: 'tool', name: 'lookup_city', arguments: { q: 'SECRET-QUERY' }, result: { id: 'SECRET-RESULT' }, latency_ms: 5 },
          weather,
          { type: 'model', model: 'planner-v1-2026', usage: { input_tokens: 41, output_tokens: 2 }, latency_ms: 18 + i },
        ],
      }
    },
  },
  scorers: [scorers.exact()],
  recordResponses: ${record},
})
`

let browser: Browser
let project: Project
let file: string

beforeAll(async () => {
  project = makeProject({ 'evals/private.eval.ts': agentSuite('private', false), 'evals/recorded.eval.ts': agentSuite('recorded', true) })
  const run = await project.vitest()
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const made = await project.digline(['report', '--out', 'report.html'])
  expect(made.code, made.stdout + made.stderr).toBe(0)
  file = join(project.dir, 'report.html')
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close()
})

interface StepView {
  type: string | null
  kind: string
  name: string
  dur: string
  tok: string | null
  failed: boolean
  args: string | null
  result: string | null
  error: string | null
}

async function stepsOf(page: import('playwright-core').Page, suite: string, caseId: string): Promise<{ tally: string; steps: StepView[] }> {
  const row = page.locator(`[data-suite="${suite}"] tr[data-case="${caseId}"]`)
  await row.locator('details summary').click()
  const trajectory = row.locator('.trajectory[data-sample="0"]')
  const tally = (await trajectory.locator('.tally').textContent()) ?? ''
  const steps = await trajectory.locator('li.step').evaluateAll((items) =>
    items.map((li) => {
      const text = (sel: string) => li.querySelector(sel)?.textContent ?? null
      return {
        type: li.getAttribute('data-type'),
        kind: text('.kind') ?? '',
        name: text('.name') ?? '',
        dur: text('.dur') ?? '',
        tok: text('.tok'),
        failed: li.querySelector('.failed') !== null,
        args: text('.args code'),
        result: text('.result code'),
        error: text('.step-error code'),
      }
    }),
  )
  return { tally, steps }
}

test('a case shows its steps in order with their durations; arguments and results only where answers were recorded', { timeout: 120_000 }, async () => {
  const html = readFileSync(file, 'utf8')
  // the unrecorded suite's private values are nowhere in the file; the recorded suite's are
  const doc = JSON.parse(project.read(`.digline/acme/runs/private/${project.runFiles('acme', 'private')[0]}`))
  expect(JSON.stringify(doc)).not.toContain('SECRET')
  expect(html.match(/SECRET-CITY-1/g)).toHaveLength(1)

  const { page, requests, errors } = await watchedPage(browser)
  const url = pathToFileURL(file).href
  await page.goto(url)
  await expect.poll(() => page.locator('[data-suite="recorded"] tr[data-case="trip-1"]').count()).toBe(1)

  const recorded = await stepsOf(page, 'recorded', 'trip-1')
  expect(recorded.tally).toBe('2 model call(s), 2 tool call(s), 1 failed, 61 ms')
  expect(recorded.steps).toEqual([
    { type: 'model', kind: 'model call', name: 'planner-v1-2026', dur: '30 ms', tok: '21 in / 4 out', failed: false, args: null, result: null, error: null },
    {
      type: 'tool',
      kind: 'tool call',
      name: 'lookup_city',
      dur: '5 ms',
      tok: null,
      failed: false,
      args: '{\n "q": "SECRET-QUERY"\n}',
      result: '{\n "id": "SECRET-RESULT"\n}',
      error: null,
    },
    {
      type: 'tool',
      kind: 'tool call',
      name: 'weather',
      dur: '7 ms',
      tok: null,
      failed: true,
      args: '{\n "city": "SECRET-CITY-1"\n}',
      result: null,
      error: 'SECRET-ERROR no station',
    },
    { type: 'model', kind: 'model call', name: 'planner-v1-2026', dur: '19 ms', tok: '41 in / 2 out', failed: false, args: null, result: null, error: null },
  ])
  // each bar starts where the steps before it ended, on one axis per sample
  const bars = await page.locator('[data-suite="recorded"] tr[data-case="trip-1"] li.step svg').evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label')))
  expect(bars).toEqual(['from 0 ms for 30 ms', 'from 30 ms for 5 ms', 'from 35 ms for 7 ms', 'from 42 ms for 19 ms'])
  expect(await page.locator('[data-suite="recorded"] tr[data-case="trip-1"] details summary').textContent()).toBe('answers, reason, scores and timeline')

  const unrecorded = await stepsOf(page, 'private', 'trip-1')
  expect(unrecorded.tally).toBe('2 model call(s), 2 tool call(s), 1 failed, 61 ms')
  expect(unrecorded.steps.map((s) => [s.name, s.dur, s.failed, s.args, s.result, s.error])).toEqual([
    ['planner-v1-2026', '30 ms', false, null, null, null],
    ['lookup_city', '5 ms', false, null, null, null],
    ['weather', '7 ms', true, null, null, null],
    ['planner-v1-2026', '19 ms', false, null, null, null],
  ])
  expect(await page.locator('[data-suite="private"] tr[data-case="trip-1"] details summary').textContent()).toBe('reason, scores and timeline')
  expect(await page.locator('[data-suite="private"]').textContent()).not.toContain('SECRET')
  await screenshot(page, 'report-timeline.png')
  await page.locator('[data-suite="recorded"] tr[data-case="trip-1"]').screenshot({ path: join(ARTIFACTS, 'report-timeline-case.png') })
  expect(errors).toEqual([])
  expect(requests.filter((r) => r !== url)).toEqual([])
})
