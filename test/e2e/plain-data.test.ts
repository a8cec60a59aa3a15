// SPEC §4 with real `vitest run` / `digline run` processes: data JSON cannot represent faithfully is
// refused by name and path (64, before any call, nothing written), a recorded answer of that kind
// errors its case, and DIGLINE_CREATED_AT must be a real instant.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { callLines } from '../helpers/kill.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'

const ASK = "async () => { appendFileSync('calls.log', 'call\\n'); return 'ok' }"

const suiteWithInputs = (inputs: string, extra = '', target = ASK) => `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'
const inputs = ${inputs}
evalSuite({
  name: 'dates',
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

describe('a value that is not plain JSON data is refused before any call', () => {
  test.each([
    ['a Map in a case input', `[{ day: 1 }, { when: new Map([['a', 1]]) }]`, 'cases[1].input.when is a Map'],
    ['a BigInt in a case input (once a raw TypeError, exit 2)', `[{ n: 12n }]`, 'cases[0].input.n is the BigInt 12n'],
    ['a Date in a case input', `[{ at: new Date(0) }]`, 'cases[0].input.at is a Date'],
  ])('%s: 64, the path named, nothing written', async (_label, inputs, words) => {
    const project = makeProject({ 'evals/dates.eval.ts': suiteWithInputs(inputs) })
    const viaVitest = await project.vitest()
    expect(viaVitest.code, viaVitest.stdout + viaVitest.stderr).toBe(64)
    expect(viaVitest.stdout + viaVitest.stderr).toContain('InvalidSuiteError')
    expect(viaVitest.stdout + viaVitest.stderr).toContain(words)
    nothingWritten(project)
    const viaBin = await project.digline(['run'])
    expect(viaBin.code, viaBin.stdout + viaBin.stderr).toBe(64)
    expect(viaBin.stdout + viaBin.stderr).toContain(words)
    nothingWritten(project)
  })

  test('NaN in the target config and a Set in the metadata are refused the same way', async () => {
    const config = makeProject({
      'evals/dates.eval.ts': suiteWithInputs(`[1]`, '', `{ config: { temperature: NaN }, async ask() { appendFileSync('calls.log', 'call\\n'); return { output: 'ok' } } }`),
    })
    const a = await config.vitest()
    expect(a.code, a.stdout + a.stderr).toBe(64)
    expect(a.stdout + a.stderr).toContain('target.config.temperature is NaN')
    nothingWritten(config)
    const metadata = makeProject({ 'evals/dates.eval.ts': suiteWithInputs(`[1]`, "metadata: { tags: new Set(['x']) },") })
    const b = await metadata.vitest()
    expect(b.code, b.stdout + b.stderr).toBe(64)
    expect(b.stdout + b.stderr).toContain('metadata.tags is a Set')
    nothingWritten(metadata)
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

test('DIGLINE_CREATED_AT must be a real instant: 2026-02-30 and T24:00 are refused (64), 2028-02-29 runs', async () => {
  for (const at of ['2026-02-30T00:00:00.000000Z', '2026-03-01T24:00:00.000000Z', '2027-02-29T00:00:00.000000Z']) {
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
