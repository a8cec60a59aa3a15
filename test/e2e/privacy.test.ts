// SPEC §7 with a real SIGKILL and a real promote: with recordResponses false, no
// answer, input or expected value is written anywhere under .digline/ — not in the journal legs a
// killed run left, the run document, the baseline, nor the CI summary — not even inside a built-in
// scorer's reason. The run, the kill and the resume are real processes; `promote`, `show` and
// `compare` are the CLI's main() in-process (ADR 0470, 0505): what they write and print is the bin's.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { callLines, killAfterCalls } from '../helpers/kill.js'
import { makeProject, type Project } from '../helpers/project.js'
import { inProcess } from './cli-in-process.js'

const MARK = 'PII'

// Every case fails every scorer, so each built-in writes its failing reason; no case errors, so the
// run can be promoted.
const SUITE = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'
import { z } from 'zod'

evalSuite({
  name: 'private',
  cases: Array.from({ length: 8 }, (_, i) => ({
    id: 'c' + i,
    input: { patient: 'Jane Roe ${MARK}-INPUT-' + i, card: '4111 1111 1111 111' + i },
    expected: 'Diagnosis ${MARK}-EXPECTED-' + i,
  })),
  target: async (input, ctx) => {
    appendFileSync('calls.log', ctx.caseId + '\\n')
    await new Promise((r) => setTimeout(r, 150))
    return 'Jane Roe has ${MARK}-ANSWER-' + input.card.slice(-1)
  },
  scorers: [
    scorers.exact(),
    scorers.includes(),
    scorers.regex(/^[0-9]+$/),
    scorers.json(z.object({ diagnosis: z.string() })),
  ],
})
`

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
}

/** Every file under .digline/ (and the CI summary) that holds the mark, with the line that does. */
function leaks(project: Project): string[] {
  const files = [...filesUnder(join(project.dir, '.digline')), join(project.dir, 'summary.md')]
  const found: string[] = []
  for (const file of files) {
    let text: string
    try {
      text = readFileSync(file, 'latin1')
    } catch {
      continue
    }
    for (const word of [MARK, 'Jane', '4111']) {
      const at = text.indexOf(word)
      if (at !== -1) found.push(`${file}: …${text.slice(Math.max(0, at - 80), at + 40)}…`)
    }
  }
  return found
}

test('recordResponses false: journal legs of a killed run, the resumed run document, the baseline and the CI summary hold no answer, input or expected value', async () => {
  const project = makeProject({ 'evals/private.eval.ts': SUITE })
  const env = { DIGLINE_CREATED_AT: '2026-11-29T10:00:00.000001Z', GITHUB_STEP_SUMMARY: join(project.dir, 'summary.md') }

  await killAfterCalls(project, 4, env)
  const pending = join(project.dir, '.digline', 'acme', 'runs', 'private', '.pending')
  const legs = readdirSync(pending)
  expect(legs.length).toBeGreaterThan(0)
  const journaled = legs.flatMap((leg) =>
    readFileSync(join(pending, leg), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"case_id"')),
  )
  expect(journaled.length, 'the killed run journaled at least one failed case').toBeGreaterThan(0)
  expect(journaled.join('\n')).toContain('does not match /^[0-9]+$/')
  expect(leaks(project)).toEqual([])

  const resumed = await project.digline(['run', '--resume'], env)
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  const [file] = project.runFiles('acme', 'private')
  const doc = JSON.parse(project.read(`.digline/acme/runs/private/${file}`))
  expect(doc.aggregates).toMatchObject({ cases: 8, failed: 8, errored: 0 })
  expect(doc.results[0].samples[0].scorers.map((s: { reason: string }) => s.reason)).toEqual([
    'the output does not equal the expected value (both strings; neither is quoted, as answers are not recorded)',
    'the output does not contain the expected value (the output is not quoted, as answers are not recorded)',
    'the output (not quoted, as answers are not recorded) does not match /^[0-9]+$/',
    'output is a string that is not JSON (not quoted, as answers are not recorded)',
  ])
  expect(callLines(project).length).toBeGreaterThanOrEqual(8)
  expect(existsSync(env.GITHUB_STEP_SUMMARY), 'the CI summary was written').toBe(true)
  expect(leaks(project)).toEqual([])
  expect(resumed.stdout + resumed.stderr).not.toContain(MARK)

  const promoted = await inProcess(project, ['promote', '--suite', 'private', '--run', file!.replace(/\.json$/, '')], env)
  expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
  expect(filesUnder(join(project.dir, '.digline', 'acme', 'baselines'))).toHaveLength(1)
  expect(leaks(project)).toEqual([])
})

// Terminal escapes in text a suite, a target or a judge wrote: cursor-up, erase-line, OSC 52 (the
// clipboard) and a bidi override reach `vitest run`, `digline show` and the job summary only as escapes.
const HOSTILE = `import { evalSuite } from 'digline'
import { existsSync } from 'node:fs'

const ESC = String.fromCharCode(27)
const BEL = String.fromCharCode(7)
const nasty = 'bad' + ESC + '[1A' + ESC + '[2K' + ESC + ']52;c;cHduZWQ=' + BEL + String.fromCharCode(0x9b) + '31m' + String.fromCharCode(0x202e) + 'end'

evalSuite({
  name: 'hostile',
  cases: [0, 1, 2].map((i) => ({ id: 'c' + i, input: i })),
  target: {
    config: { model: 'm' },
    async ask(i) {
      if (!existsSync('hostile')) return { output: 0, model: 'model' }
      if (i === 2) throw new Error('target says ' + nasty)
      return { output: i, model: 'model' + ESC + '[2J' }
    },
  },
  scorers: [{ name: 'custom', score: ({ output }) => ({ pass: output === 0, score: output === 0 ? 1 : 0, reason: output === 0 ? 'fine' : 'judge says ' + nasty }) }],
})
`

test('control characters from a scorer, a target and an observed model reach the terminal and the job summary as escapes', async () => {
  const project = makeProject({ 'evals/hostile.eval.ts': HOSTILE })
  const summary = join(project.dir, 'summary.md')
  const env = { GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' }
  const clean = await project.vitest([], env)
  expect(clean.code, clean.stdout + clean.stderr).toBe(0)
  const promoted = await inProcess(project, ['promote', '--suite', 'hostile', '--run', 'latest'])
  expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
  project.write('hostile', '')
  const run = await project.vitest([], env)
  expect(run.code, run.stdout + run.stderr).toBe(2)
  const show = await inProcess(project, ['show', '--suite', 'hostile', '--run', 'latest', '--all'], env)
  expect(show.code, show.stdout + show.stderr).toBe(0)
  const compare = await inProcess(project, ['compare', '--suite', 'hostile', '--run', 'latest'], env)
  const texts = { run: run.stdout + run.stderr, show: show.stdout + show.stderr, compare: compare.stdout + compare.stderr, summary: readFileSync(summary, 'utf8') }
  // NO_COLOR is set, so nothing digline or Vitest prints has a control character of its own.
  for (const [where, text] of Object.entries(texts)) expect(/[\u001b\u0007\u009b\u202e]/.test(text), `${where}: ${JSON.stringify(text)}`).toBe(false)
  expect(texts.run).toContain('judge says bad\\x1b[1A\\x1b[2K\\x1b]52;c;cHduZWQ=\\x07\\x9b31m\\u202eend')
  expect(texts.run).toContain('target says bad\\x1b[1A')
  expect(texts.show).toContain('judge says bad\\x1b[1A')
  expect(texts.summary).toContain('model\\x1b[2J now')
  expect(texts.compare).toContain('model\\x1b[2J now')
}, 400_000)
