// A conversation's timeline in the report, as a person meets it: a run of conversation cases opened
// from disk in Chromium, offline. A case's details show, per sample, every turn in the order it was
// said (who spoke, its usage, its duration, what was said only when answers were recorded) and the
// target's steps inside each turn; a run that did not record answers has no word said and no tool
// argument or result anywhere in the report file.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ARTIFACTS, launchChromium, screenshot, watchedPage } from '../helpers/browser.js'
import { makeProject, type Project } from '../helpers/project.js'

// A scripted case and a simulated-user case (a user of the suite's own, no network). Each answer of
// the target: a model call, a tool call (failing on the second turn), a last model call. Every
// private value carries SECRET so the test can look for it.
const conversationSuite = (name: string, record: boolean) => `import { evalSuite } from 'digline'

const user = {
  config: { model: 'user-sim' },
  maxTurns: 3,
  async next({ turns }) {
    const answers = turns.filter((t) => t.role === 'assistant').length
    return answers < 2
      ? { text: 'SECRET-USER-SAYS-' + answers, done: false, model: 'user-sim-2026', usage: { input_tokens: 9, output_tokens: 3 } }
      : { text: 'SECRET-USER-BYE', done: true, model: 'user-sim-2026', usage: { input_tokens: 11, output_tokens: 1 } }
  },
}

evalSuite({
  name: ${JSON.stringify(name)},
  cases: [
    { id: 'scripted', input: { script: ['SECRET-SCRIPT-0', 'SECRET-SCRIPT-1'] } },
    { id: 'simulated', input: { goal: 'SECRET-GOAL' } },
  ],
  target: {
    config: { model: 'desk-v1' },
    async ask(messages, ctx) {
      const turn = ctx.turn
      const lookup = turn === 1
        ? { type: 'tool', name: 'find_order', arguments: { id: 'SECRET-ARG-' + turn }, error: 'SECRET-ERROR no order', latency_ms: 7 }
        : { type: 'tool', name: 'find_order', arguments: { id: 'SECRET-ARG-' + turn }, result: { state: 'SECRET-RESULT' }, latency_ms: 5 }
      return {
        output: 'SECRET-ANSWER-' + turn,
        model: 'desk-v1-2026',
        steps: [
          { type: 'model', model: 'desk-v1-2026', usage: { input_tokens: 20 + turn, output_tokens: 4 }, latency_ms: 30 },
          lookup,
          { type: 'model', model: 'desk-v1-2026', usage: { input_tokens: 40, output_tokens: 2 }, latency_ms: 10 + turn },
        ],
      }
    },
  },
  scorers: [{ name: 'answered', score: ({ turns }) => turns.some((t) => t.role === 'assistant') }],
  conversation: { user },
  recordResponses: ${record},
})
`

let browser: Browser
let project: Project
let file: string

beforeAll(async () => {
  project = makeProject({ 'evals/private.eval.ts': conversationSuite('private', false), 'evals/recorded.eval.ts': conversationSuite('recorded', true) })
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

interface TurnView {
  role: string | null
  dur: string
  tok: string | null
  calls: string | null
  said: string | null
  bar: string | null
  steps: { type: string | null; name: string; dur: string; failed: boolean; args: string | null; result: string | null; error: string | null; bar: string | null }[]
}

async function conversationOf(page: Page, suite: string, caseId: string): Promise<{ title: string; tally: string; turns: TurnView[] }> {
  const row = page.locator(`[data-suite="${suite}"] tr[data-case="${caseId}"]`)
  await row.locator('details summary').click()
  const talk = row.locator('.conversation[data-sample="0"]')
  const title = (await talk.locator(':scope > b').textContent()) ?? ''
  const tally = (await talk.locator(':scope > .tally').textContent()) ?? ''
  const turns = await talk.locator('ol.turns > li.turn').evaluateAll((items) =>
    items.map((li) => {
      const own = (sel: string) => li.querySelector(':scope > ' + sel)?.textContent ?? null
      return {
        role: li.getAttribute('data-role'),
        dur: own('.dur') ?? '',
        tok: own('.tok'),
        calls: own('.calls'),
        said: li.querySelector(':scope > .said code')?.textContent ?? null,
        bar: li.querySelector(':scope > svg')?.getAttribute('aria-label') ?? null,
        steps: [...li.querySelectorAll('li.step')].map((step) => {
          const text = (sel: string) => step.querySelector(sel)?.textContent ?? null
          return {
            type: step.getAttribute('data-type'),
            name: text('.name') ?? '',
            dur: text('.dur') ?? '',
            failed: step.querySelector('.failed') !== null,
            args: text('.args code'),
            result: text('.result code'),
            error: text('.step-error code'),
            bar: step.querySelector('svg')?.getAttribute('aria-label') ?? null,
          }
        }),
      }
    }),
  )
  return { title, tally, turns }
}

const step = (type: string, name: string, dur: string, bar: string, more: Partial<TurnView['steps'][number]> = {}) => ({
  type,
  name,
  dur,
  failed: false,
  args: null,
  result: null,
  error: null,
  bar,
  ...more,
})

test(
  "a conversation case shows each turn in order with its steps inside; what was said and the tools' arguments only where answers were recorded",
  { timeout: 120_000 },
  async () => {
    const html = readFileSync(file, 'utf8')
    // the unrecorded suite's words are nowhere in the file; the recorded suite's are there once each
    const privateDoc = project.read(`.digline/acme/runs/private/${project.runFiles('acme', 'private')[0]}`)
    expect(privateDoc).not.toContain('SECRET')
    expect(html.match(/SECRET-USER-BYE/g)).toHaveLength(1)

    const { page, requests, errors } = await watchedPage(browser)
    const url = pathToFileURL(file).href
    await page.goto(url)
    await expect.poll(() => page.locator('[data-suite="recorded"] tr[data-case="simulated"]').count()).toBe(1)

    const simulated = await conversationOf(page, 'recorded', 'simulated')
    expect(simulated.title).toBe('sample 0 conversation ')
    expect(simulated.tally).toBe('5 turn(s): 3 user, 2 assistant; 4 model call(s), 2 tool call(s), 1 failed, 93 ms')
    expect(simulated.turns.map((t) => [t.role, t.dur, t.tok, t.calls, t.said, t.bar])).toEqual([
      ['user', 'no duration', '9 in / 3 out', null, 'SECRET-USER-SAYS-0', 'from 0 ms for 0 ms'],
      ['assistant', 'no duration', '60 in / 6 out', '2 model call(s), 1 tool call(s)', 'SECRET-ANSWER-0', 'from 0 ms for 45 ms'],
      ['user', 'no duration', '9 in / 3 out', null, 'SECRET-USER-SAYS-1', 'from 45 ms for 0 ms'],
      ['assistant', 'no duration', '61 in / 6 out', '2 model call(s), 1 tool call(s), 1 failed', 'SECRET-ANSWER-1', 'from 45 ms for 48 ms'],
      ['user', 'no duration', '11 in / 1 out', null, 'SECRET-USER-BYE', 'from 93 ms for 0 ms'],
    ])
    expect(simulated.turns[0]!.steps).toEqual([])
    expect(simulated.turns[1]!.steps).toEqual([
      step('model', 'desk-v1-2026', '30 ms', 'from 0 ms for 30 ms'),
      step('tool', 'find_order', '5 ms', 'from 30 ms for 5 ms', { args: '{\n "id": "SECRET-ARG-0"\n}', result: '{\n "state": "SECRET-RESULT"\n}' }),
      step('model', 'desk-v1-2026', '10 ms', 'from 35 ms for 10 ms'),
    ])
    expect(simulated.turns[3]!.steps).toEqual([
      step('model', 'desk-v1-2026', '30 ms', 'from 45 ms for 30 ms'),
      step('tool', 'find_order', '7 ms', 'from 75 ms for 7 ms', { failed: true, args: '{\n "id": "SECRET-ARG-1"\n}', error: 'SECRET-ERROR no order' }),
      step('model', 'desk-v1-2026', '11 ms', 'from 82 ms for 11 ms'),
    ])
    expect(await page.locator('[data-suite="recorded"] tr[data-case="simulated"] details summary').textContent()).toBe('answers, reason, scores and timeline')

    const scripted = await conversationOf(page, 'recorded', 'scripted')
    expect(scripted.turns.map((t) => [t.role, t.said])).toEqual([
      ['user', 'SECRET-SCRIPT-0'],
      ['assistant', 'SECRET-ANSWER-0'],
      ['user', 'SECRET-SCRIPT-1'],
      ['assistant', 'SECRET-ANSWER-1'],
    ])

    const unrecorded = await conversationOf(page, 'private', 'simulated')
    expect(unrecorded.tally).toBe(simulated.tally)
    expect(unrecorded.turns.map((t) => [t.role, t.dur, t.tok, t.calls, t.said, t.bar])).toEqual(simulated.turns.map((t) => [t.role, t.dur, t.tok, t.calls, null, t.bar]))
    expect(unrecorded.turns[3]!.steps).toEqual(simulated.turns[3]!.steps.map((s) => ({ ...s, args: null, result: null, error: null })))
    expect(await page.locator('[data-suite="private"] tr[data-case="simulated"] details summary').textContent()).toBe('reason, scores and timeline')
    expect(await page.locator('[data-suite="private"]').textContent()).not.toContain('SECRET')
    await screenshot(page, 'report-conversation-timeline.png')
    await page.locator('[data-suite="recorded"] tr[data-case="simulated"]').screenshot({ path: join(ARTIFACTS, 'report-conversation-timeline-case.png') })
    expect(errors).toEqual([])
    expect(requests.filter((r) => r !== url)).toEqual([])
  },
)

test('without recorded answers the report file holds no turn text, tool argument, result or error', { timeout: 120_000 }, async () => {
  const made = await project.digline(['report', '--suite', 'private', '--out', 'private.html'])
  expect(made.code, made.stdout + made.stderr).toBe(0)
  const bytes = readFileSync(join(project.dir, 'private.html'))
  for (const word of ['SECRET', 'USER-SAYS', 'USER-BYE', 'SCRIPT-0', 'ANSWER-1', 'ARG-0', 'RESULT', 'no order']) expect(bytes.includes(word), word).toBe(false)
  expect(bytes.includes('find_order'), 'the tool names are there').toBe(true)
  expect(bytes.includes('"conversations"'), 'the turns are in the data').toBe(true)
})
