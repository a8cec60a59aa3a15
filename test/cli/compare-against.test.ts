// `digline compare --against` as a person runs it, over two runs `vitest run` wrote with two models:
// run B in the baseline's place, the exit code of the gate, the words for what changed; and `list`
// telling the two targets apart.
import { expect, test } from 'vitest'
import { makeProject } from '../helpers/project.js'

const SUITE = `import { evalSuite, scorers } from 'digline'

const model = process.env.MODEL ?? 'm-1'
evalSuite({
  name: 'qa',
  cases: Array.from({ length: 24 }, (_, i) => ({ id: 'c' + String(i).padStart(2, '0'), input: i, expected: 'ok-' + i })),
  target: {
    config: { model, temperature: 0 },
    ask: (i) => ({ output: model === 'm-2' && i % 2 === 0 ? 'no' : 'ok-' + i, model: model + '-2026' }),
  },
  scorers: [scorers.exact()],
  tolerances: { passRate: 0.05 },
})
`

test('compare --against: run A regressed against run B exits 1 and names what changed; list shows each target', async () => {
  const project = makeProject({ 'evals/qa.eval.ts': SUITE })
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-01T00:00:00.000001Z' })).code).toBe(0)
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-02T00:00:00.000001Z', MODEL: 'm-2' })).code).toBe(0)
  const [b, a] = project.runFiles('acme', 'qa').map((f) => f.replace(/\.json$/, ''))

  const compared = await project.digline(['compare', '--suite', 'qa', '--run', 'latest', '--against', b!])
  expect(compared.code, compared.stderr).toBe(1)
  expect(compared.stdout).toContain(`against run ${b}`)
  expect(compared.stdout).toMatch(/regressed pass rate −50\.0 points over 24 shared cases/)
  expect(compared.stdout).toContain(`the target's declared config: changed model ("m-1" → "m-2")`)
  expect(compared.stdout).toContain(`the target reported another model: m-1-2026 in run ${b}, m-2-2026 in run ${a}`)

  const back = await project.digline(['compare', '--suite', 'qa', '--run', b!, '--against', a!, '--json'])
  expect(back.code).toBe(0)
  expect(JSON.parse(back.stdout)).toMatchObject({ key: b, against: a, status: 'held', cases: { shared: 24, same: true } })

  const list = await project.digline(['list', '--suite', 'qa'])
  const targets = list.stdout
    .trim()
    .split('\n')
    .map((l) => / target ([0-9a-f]{12}) (\S+)/.exec(l)?.slice(1))
  expect(targets.map((t) => t?.[1])).toEqual(['m-1-2026', 'm-2-2026'])
  expect(targets[0]![0]).not.toBe(targets[1]![0])
})
