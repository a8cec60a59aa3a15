// `digline rejudge --repeat K` (ADR 0265): the recorded answers judged K times by a judge whose noise
// is scripted (it counts how often it has scored each answer), the K replays filed, and the noise
// printed: the judge's share, and the case whose verdict the judge itself flips.
import { expect, test } from 'vitest'
import { makeProject } from '../helpers/project.js'

// Case "edge": the judge scores an answer 0.6 when it has judged it an even number of times before,
// else 0.4, so its verdict flips from one judgement to the next. Case "firm" always scores 0.9.
const suite = `import { evalSuite } from 'digline'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'

const seen = (key) => (existsSync('judged.log') ? readFileSync('judged.log', 'utf8').split('\\n').filter((l) => l === key).length : 0)

evalSuite({
  name: 'noisy',
  cases: [{ id: 'edge', input: 'e' }, { id: 'firm', input: 'f' }],
  target: (input, ctx) => input + ctx.sample,
  samples: 2,
  recordResponses: true,
  scorers: [{
    name: 'judge',
    passAt: 0.5,
    score: ({ caseId, output }) => {
      const key = caseId + ':' + output
      const before = seen(key)
      appendFileSync('judged.log', key + '\\n')
      if (caseId === 'firm') return 0.9
      return before % 2 === 0 ? 0.6 : 0.4
    },
  }],
})
`

test('rejudge --repeat 2 files two replays and prints the judge noise and the flipped case', async () => {
  const project = makeProject({ 'evals/noisy.eval.ts': suite })
  const first = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-20T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  const source = project.runFiles('acme', 'noisy')[0]!.replace('.json', '')
  const result = await project.digline(['rejudge', '--suite', 'noisy', '--run', source, '--repeat', '2', '--max-judge-share', '0.3'])
  expect(result.stdout.match(/Filed replay/g), result.stdout + result.stderr).toHaveLength(2)
  expect(project.runFiles('acme', 'noisy')).toHaveLength(3)
  expect(result.stdout).toContain('judge noise over 2 case(s) × 2 sample(s) × 2 judgements:')
  expect(result.stdout).toContain('verdicts the judge flips (1): edge')
  expect(result.stdout).toContain("the judge's share of the noise: 100%")
  expect(result.stdout).toContain('warning: the judge makes 100% of the score')
  expect(result.code).toBe(0)
  const refused = await project.digline(['rejudge', '--suite', 'noisy', '--run', source, '--repeat', '1'])
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('--repeat "1" is not a count from 2 to 20')
  expect(project.runFiles('acme', 'noisy')).toHaveLength(3)
})
