// The same suite name in two files of one launch is refused at collection (64), naming both files;
// the refused file makes no call (SPEC §5 refusals; plugin/suite-name-claim.ts).
import { expect, test } from 'vitest'
import { makeProject } from '../helpers/project.js'
import { callLines } from '../helpers/kill.js'

const twin = (log: string) => `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

evalSuite({
  name: 'twin',
  cases: Array.from({ length: 6 }, (_, i) => ({ id: 'c' + i, input: i, expected: i })),
  target: async (i, ctx) => {
    appendFileSync(${JSON.stringify(log)}, ctx.caseId + '\\n')
    await new Promise((r) => setTimeout(r, 20))
    return i
  },
  scorers: [scorers.exact()],
})
`

for (const args of [[], ['--no-file-parallelism'], ['--maxWorkers', '2']]) {
  test(`two files declare suite twin (${args.join(' ') || 'defaults'}): 64, both named, one of them never calls`, async () => {
    const project = makeProject({ 'evals/a.eval.ts': twin('a.log'), 'evals/b.eval.ts': twin('b.log') })
    const result = await project.vitest(args)
    const out = result.stdout + result.stderr
    expect(result.code, out).toBe(64)
    expect(out).toContain('DuplicateSuiteNameError')
    expect(out).toMatch(/declared by two files, evals\/[ab]\.eval\.ts and evals\/[ab]\.eval\.ts/)
    const called = [callLines(project, 'a.log').length, callLines(project, 'b.log').length].filter((n) => n > 0)
    expect(called.length, out).toBeLessThanOrEqual(1)
    expect(project.runFiles('acme', 'twin').length).toBeLessThanOrEqual(1)
  })
}
