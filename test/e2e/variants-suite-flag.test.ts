// `digline run --suite pick` runs every variant pick.<variant> of suite pick, and `--suite pick.small`
// one of them (ADR 0415): vitest gets the file that declares them, the other suites are skipped. The
// variant table the launch prints reaches GITHUB_STEP_SUMMARY and digline mcp's run_suite answer too.
import { afterEach, expect, test } from 'vitest'
import { callLines } from '../helpers/kill.js'
import { connect, textOf, type Connected } from '../helpers/mcp-client.js'
import { countingSuite, makeProject } from '../helpers/project.js'

const open: Connected[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.client.close().catch(() => undefined)
})

const variantsSuite = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

const target = (model) => ({
  config: { model },
  async ask(i) {
    appendFileSync('pick-calls.log', model + ':' + i + '\\n')
    return { output: i % 2 === 0 || model === 'large' ? i : -1 }
  },
})

evalSuite({
  name: 'pick',
  cases: Array.from({ length: 4 }, (_, i) => ({ id: 'c' + i, input: i, expected: i })),
  variants: { small: target('small'), large: target('large') },
  scorers: [scorers.exact()],
})
`

test(
  '--suite pick runs both variants of pick and no other suite; --suite pick.small runs that variant alone; the variant table in the step summary and in mcp',
  { timeout: 600_000 },
  async () => {
    const other = countingSuite({ name: 'other', cases: 2 })
    const project = makeProject({ 'evals/pick.eval.ts': variantsSuite, 'evals/other.eval.ts': other })
    const all = await project.digline(['run', '--suite', 'pick'], { DIGLINE_CREATED_AT: '2026-12-03T10:00:00.000001Z', GITHUB_STEP_SUMMARY: 'summary.md' })
    const out = all.stdout + all.stderr
    expect(all.code, out).toBe(0)
    expect(callLines(project, 'pick-calls.log').sort()).toEqual(['large:0', 'large:1', 'large:2', 'large:3', 'small:0', 'small:1', 'small:2', 'small:3'])
    expect(callLines(project)).toEqual([])
    expect(project.runFiles('acme', 'pick.small')).toHaveLength(1)
    expect(project.runFiles('acme', 'pick.large')).toHaveLength(1)
    expect(project.runFiles('acme', 'other')).toEqual([])
    expect(out).toContain('digline variants of pick: 2 variants asked the same cases')
    const summary = project.read('summary.md')
    expect(summary).toContain('### Variants of pick')
    expect(summary).toMatch(/\| small \| 50\.0% \[[^|]+\] \| 0\.500 \[[^|]+\] \| n\/a \|/)
    expect(summary).toMatch(/\| large \| 100\.0% \[[^|]+\] \|/)
    expect(summary).toContain('- small − large: −50.0 points')

    const one = await project.digline(['run', '--suite', 'pick.small'], { DIGLINE_CREATED_AT: '2026-12-03T11:00:00.000001Z' })
    expect(one.code, one.stdout + one.stderr).toBe(0)
    expect(callLines(project, 'pick-calls.log').filter((l) => l.startsWith('small:'))).toHaveLength(8)
    expect(callLines(project, 'pick-calls.log').filter((l) => l.startsWith('large:'))).toHaveLength(4)
    expect(project.runFiles('acme', 'pick.small')).toHaveLength(2)
    expect(project.runFiles('acme', 'pick.large')).toHaveLength(1)

    // digline mcp: run_suite with suite pick runs both variants and answers with their table
    const mcp = await connect(project)
    open.push(mcp)
    // the bill of 8 calls is the one plan_run announces: run_suite checks it against a fresh plan itself
    const ran = await mcp.call('run_suite', { suite: 'pick', acknowledgedCalls: 8 })
    expect(ran.isError, textOf(ran)).toBeFalsy()
    const answer = ran.structuredContent as { variants: { suite: string; variants: { variant: string; pass_rate: number }[]; pairs: { a: string; b: string }[]; text: string }[] }
    expect(answer.variants).toHaveLength(1)
    expect(answer.variants[0]).toMatchObject({
      suite: 'pick',
      variants: [
        { variant: 'small', pass_rate: 0.5 },
        { variant: 'large', pass_rate: 1 },
      ],
      pairs: [{ a: 'small', b: 'large' }],
    })
    expect(answer.variants[0]!.text).toContain('digline variants of pick: 2 variants asked the same cases')
    expect(callLines(project)).toEqual([])
  },
)
