// The exit of `digline rejudge` tells the truth about what was filed: a refusal in another suite
// file of the project does not turn a filed replay into "refused, nothing filed" (64).
import { expect, test } from 'vitest'
import { countingSuite, makeProject } from '../helpers/project.js'

const broken = `import { evalSuite } from 'digline'
evalSuite({ name: 'broken', cases: [], target: async () => 'x', scorers: [] } as never)
`

test('a replay filed beside a refused suite file exits with the replay verdict (0)', async () => {
  const project = makeProject({ 'evals/caps.eval.ts': countingSuite({ name: 'caps', cases: 3, extra: 'recordResponses: true,' }), 'evals/broken.eval.ts': broken })
  const first = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-20T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(64)
  const source = project.runFiles('acme', 'caps')[0]!.replace('.json', '')
  const result = await project.digline(['rejudge', '--suite', 'caps', '--run', source])
  expect(result.stdout, result.stderr).toContain('Filed replay')
  expect(result.code, result.stdout + result.stderr).toBe(0)
  expect(project.runFiles('acme', 'caps')).toHaveLength(2)

  const nowhere = await project.digline(['rejudge', '--suite', 'caps', '--run', source, '--into', 'gone'])
  expect(nowhere.code).toBe(64)
  expect(nowhere.stderr).toContain('SuiteNotDeclaredError')
  expect(project.runFiles('acme', 'gone')).toEqual([])
})
