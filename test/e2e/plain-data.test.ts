// SPEC §4 with real `vitest run` / `digline run` processes: data JSON cannot represent faithfully is
// refused by name and path (64, before any call, nothing written), a recorded answer of that kind
// errors its case, and DIGLINE_CREATED_AT must be a real instant.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { callLines } from '../helpers/kill.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'

const ASK = "async () => { appendFileSync('calls.log', 'call\\n'); return 'ok' }"

const suiteWithInputs = (inputs: string, extra = '', target = ASK, name = 'dates') => `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'
const inputs = ${inputs}
evalSuite({
  name: '${name}',
  cases: inputs.map((input, i) => ({ id: 'c' + i, input, expected: 'ok' })),
  target: ${target},
  scorers: [scorers.exact()],
  ${extra}
})
`

function nothingWritten(project: Project): void {
  expect(callLines(project)).toEqual([])
  const runs = join(project.dir, '.digline', 'acme', 'runs')
  expect(existsSync(runs) ? readdirSync(runs, { recursive: true }) : []).toEqual([])
}

// Which values are not plain data is findNotPlain's table (test/unit/suite/plain-data.test.ts); here each
// place such a value can sit is refused through both doors. The files share one launch: each names its
// own path, and one that slipped through (or broke as a raw TypeError, exit 2) would lack its words.
describe('a value that is not plain JSON data is refused before any call', () => {
  const REFUSED: [file: string, suite: string, words: string][] = [
    ['evals/map.eval.ts', suiteWithInputs(`[{ day: 1 }, { when: new Map([['a', 1]]) }]`, '', ASK, 'map'), 'cases[1].input.when is a Map'],
    ['evals/bigint.eval.ts', suiteWithInputs(`[{ n: 12n }]`, '', ASK, 'bigint'), 'cases[0].input.n is the BigInt 12n'],
    ['evals/date.eval.ts', suiteWithInputs(`[{ at: new Date(0) }]`, '', ASK, 'date'), 'cases[0].input.at is a Date'],
    [
      'evals/config.eval.ts',
      suiteWithInputs(`[1]`, '', `{ config: { temperature: NaN }, async ask() { appendFileSync('calls.log', 'call\\n'); return { output: 'ok' } } }`, 'config'),
      'target.config.temperature is NaN',
    ],
    ['evals/metadata.eval.ts', suiteWithInputs(`[1]`, "metadata: { tags: new Set(['x']) },", ASK, 'metadata'), 'metadata.tags is a Set'],
  ]

  test('a Map, a BigInt (once a raw TypeError, exit 2) or a Date in a case input, NaN in the target config, a Set in the metadata: 64, the path named, nothing written', async () => {
    const project = makeProject(Object.fromEntries(REFUSED.map(([file, text]) => [file, text])))
    for (const result of [await project.vitest(), await project.digline(['run'])]) {
      const output = result.stdout + result.stderr
      expect(result.code, output).toBe(64)
      expect(output).toContain('InvalidSuiteError')
      for (const [, , words] of REFUSED) expect(output).toContain(words)
      nothingWritten(project)
    }
  })
})

test('a recorded answer that is undefined, NaN or a Map errors its case (exit 2), naming the path; plain answers are recorded', async () => {
  const project = makeProject({
    'evals/answers.eval.ts': `import { evalSuite } from 'digline'
const answers = { plain: { a: [1, 'x'] }, missing: undefined, nan: NaN, map: new Map([['k', 1]]), nested: { at: [1, new Date(0)] } }
evalSuite({
  name: 'answers',
  cases: Object.keys(answers).map((id) => ({ id, input: id })),
  target: async (id) => answers[id],
  scorers: [{ name: 'any', score: () => true }],
  recordResponses: true,
})
`,
  })
  const result = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T10:00:00.000001Z' })
  expect(result.code, result.stdout + result.stderr).toBe(2)
  const [file] = project.runFiles('acme', 'answers')
  const doc = JSON.parse(project.read(`.digline/acme/runs/answers/${file}`))
  const byId = Object.fromEntries(doc.results.map((r: { case_id: string }) => [r.case_id, r]))
  expect(byId.plain).toMatchObject({ verdict: 'pass', samples: [{ output: { a: [1, 'x'] } }] })
  for (const [id, words] of [
    ['missing', 'output is undefined'],
    ['nan', 'output is NaN'],
    ['map', 'output is a Map'],
    ['nested', 'output.at[1] is a Date'],
  ]) {
    expect(byId[id!]).toMatchObject({ verdict: 'error', error: { cause: 'target' }, samples: [] })
    expect(byId[id!].error.message).toContain(`sample 0 of 1: malformed answer: the answer cannot be recorded (recordResponses is true): ${words}`)
  }
})

// Which instants are real is the table of test/unit/suite/created-at.test.ts (2026-02-30, T24:00,
// 2027-02-29 refused; 2028-02-29 kept); here, one of each through a real run.
test('DIGLINE_CREATED_AT must be a real instant: 2026-02-30 is refused (64), 2028-02-29 runs', async () => {
  for (const at of ['2026-02-30T00:00:00.000000Z']) {
    const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
    const result = await project.vitest([], { DIGLINE_CREATED_AT: at })
    expect(result.code, result.stdout + result.stderr).toBe(64)
    expect(result.stdout + result.stderr).toContain('InvalidOptionsError')
    expect(result.stdout + result.stderr).toContain('is not a real instant')
    expect(project.runFiles('acme', 's')).toEqual([])
  }
  const leap = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
  const result = await leap.vitest([], { DIGLINE_CREATED_AT: '2028-02-29T00:00:00.000000Z' })
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(leap.runFiles('acme', 's')[0]).toMatch(/^20280229T000000000000Z-[0-9a-f]{12}\.json$/)
})

test('a model id too large for the header errors its case (exit 2) and the run is written: never refused after every call was paid (issue 23 item 9)', async () => {
  const project = makeProject({
    'evals/ids.eval.ts': `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'
const huge = 'x'.repeat(2 * 1024 * 1024)
evalSuite({
  name: 'ids',
  cases: ['a', 'big', 'c'].map((id) => ({ id, input: id, expected: id })),
  target: { async ask(input) { appendFileSync('calls.log', input + '\\n'); return input === 'big' ? { output: input, model: huge } : { output: input } } },
  scorers: [scorers.exact()],
})
`,
  })
  const result = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T10:00:00.000001Z' })
  const out = result.stdout + result.stderr
  expect(out).not.toContain('Nothing was called or written')
  expect(result.code, out.slice(0, 4000)).toBe(2)
  expect(callLines(project).sort()).toEqual(['a', 'big', 'c'])
  const [file] = project.runFiles('acme', 'ids')
  const doc = JSON.parse(project.read(`.digline/acme/runs/ids/${file}`))
  expect(doc.results.map((r: { verdict: string }) => r.verdict)).toEqual(['pass', 'error', 'pass'])
  expect(doc.results[1].error.cause).toBe('target')
  expect(doc.results[1].error.message).toContain("ObservedIdentityTooLargeError: the target's model id is 2097154 bytes long")
  expect(doc.observed.target_model).toBeNull()
  const pending = join(project.dir, '.digline', 'acme', 'runs', 'ids', '.pending')
  expect(existsSync(pending) ? readdirSync(pending) : []).toEqual([])
})
