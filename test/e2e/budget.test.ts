// The budget (SPEC §14): a launch stops issuing calls once it reaches its budget, leaves the rest of
// the run pending, exits 2 naming the budget, and `digline run --resume` finishes it later with a new
// budget, into the same document an unbudgeted run writes. Real `vitest run` and `digline` processes.
// One project shows the refusal of a bill over the budget, then `--over-budget`, then the resume (ADR 0505).
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { countingSuite, makeProject, pendingDir, type Project } from '../helpers/project.js'

const env = { DIGLINE_CREATED_AT: '2026-11-30T08:00:00.000001Z' }

function calls(project: Project): string[] {
  const file = join(project.dir, 'calls.log')
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []
}

function documentSha(project: Project, suite: string): string {
  const [file] = project.runFiles('acme', suite)
  expect(file, 'a run document').toBeDefined()
  return createHash('sha256')
    .update(readFileSync(join(project.dir, '.digline', 'acme', 'runs', suite, file!)))
    .digest('hex')
}

const CASES = 40
const SAMPLES = 2
const suiteWith = (budget: string) => countingSuite({ name: 'capped', cases: CASES, samples: SAMPLES, concurrency: 8, delayMs: 15, extra: budget })

describe('a budget that stops and resumes', () => {
  test('a bill over the budget is refused before any call (64); with --over-budget it stops mid-run at concurrency 8, and resumed with a raised budget the document is byte-identical to an unbudgeted run, and no call is made twice', async () => {
    const capped = makeProject({ 'evals/capped.eval.ts': suiteWith('budget: { calls: 30 },') })
    const refused = await capped.vitest([], env)
    expect(refused.code, refused.stdout + refused.stderr).toBe(64)
    expect(refused.stdout + refused.stderr).toContain('OverBudgetError')
    expect(refused.stdout + refused.stderr).toContain(`${CASES * SAMPLES} calls exceed budget.calls 30`)
    expect(calls(capped)).toEqual([])
    expect(existsSync(pendingDir(capped, 'capped'))).toBe(false)

    const first = await capped.digline(['run', '--over-budget'], env)
    const out = first.stdout + first.stderr
    expect(first.code, out).toBe(2)
    expect(out).toContain('BudgetReachedError')
    expect(out).toMatch(/reached its budget \(30 calls\): 30 calls spent by this launch/)
    expect(out).toContain('stay pending')
    expect(out).toContain('over budget, so the run stops when it reaches it')
    expect(calls(capped)).toHaveLength(30)
    expect(capped.runFiles('acme', 'capped')).toEqual([])
    expect(existsSync(pendingDir(capped, 'capped'))).toBe(true)

    // The budget is not part of the run: raising it in the suite file does not block the resume.
    capped.write('evals/capped.eval.ts', suiteWith('budget: { calls: 1000 },'))
    const resumed = await capped.digline(['run', '--resume'])
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(`25 of ${CASES} cases × 2 samples = 50 calls to the target; 15 case(s) already judged`)
    const made = calls(capped)
    expect(made).toHaveLength(CASES * SAMPLES)
    expect(new Set(made).size).toBe(CASES * SAMPLES)

    const plain = makeProject({ 'evals/capped.eval.ts': countingSuite({ name: 'capped', cases: CASES, samples: SAMPLES, concurrency: 8, delayMs: 15 }) })
    const whole = await plain.vitest([], env)
    expect(whole.code, whole.stdout + whole.stderr).toBe(0)
    expect(documentSha(capped, 'capped')).toBe(documentSha(plain, 'capped'))
  }, 300_000)

  test('DIGLINE_BUDGET_USD caps one launch by what its tokens cost, and a resume with a larger one finishes the run', async () => {
    const priced = countingSuite({
      name: 'priced',
      cases: 12,
      concurrency: 1,
      answer: "'ok-' + i, usage: { input_tokens: 1000, output_tokens: 0 }",
      extra: "prices: { 'counter-v1-2026': { input: 1, output: 0 } },",
    })
    const project = makeProject({ 'evals/priced.eval.ts': priced })
    const first = await project.vitest([], { ...env, DIGLINE_BUDGET_USD: '0.0045' })
    const out = first.stdout + first.stderr
    expect(first.code, out).toBe(2)
    expect(out).toContain('no cost estimate yet')
    // Each call costs $0.001: once five are spent the budget is reached, and no sixth call starts.
    expect(out).toMatch(/reached its budget \(\$0\.0045\): 5 calls costing \$0\.005 spent by this launch/)
    expect(calls(project)).toHaveLength(5)

    const resumed = await project.digline(['run', '--resume'], { DIGLINE_BUDGET_USD: '1' })
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
    expect(calls(project)).toHaveLength(12)
    expect(new Set(calls(project)).size).toBe(12)
  }, 300_000)
})
