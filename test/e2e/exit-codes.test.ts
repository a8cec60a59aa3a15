// SPEC §5 from a real `vitest run` and from `digline run`: 0, 1, 2 and 64. Which code a launch earns
// is exitCodeForLaunch's table and which child exit `digline run` passes on is exitCodeForChild's
// (test/unit/error-recognition.test.ts); which definitions are refused is resolveSuite's
// (test/unit/suite/invalid-definitions.test.ts). Here each code is earned once through both doors,
// and each way of earning one (a plain test, an errored case, a refusal in the worker or the config) once.
import { describe, expect, test } from 'vitest'
import { countingSuite, defaultConfig, makeProject } from '../helpers/project.js'

const ERRORING = `import { evalSuite, scorers } from 'digline'
evalSuite({
  name: 'erroring',
  cases: [{ id: 'a', input: 1, expected: 1 }, { id: 'b', input: 2, expected: 2 }],
  target: async (x) => { if (x === 2) throw new Error('upstream 529 overloaded'); return x },
  scorers: [scorers.exact()],
})
`

const invalid = (fields: string) => `import { evalSuite, scorers } from 'digline'
evalSuite({ name: 'bad', cases: [{ id: 'a', input: 1, expected: 1 }], target: async (x) => x, scorers: [scorers.exact()], ${fields} })
`

describe('exit codes', () => {
  const viaVitest = async (files: Record<string, string>, expected: number) => {
    const project = makeProject(files)
    const a = await project.vitest()
    expect(a.code, a.stdout + a.stderr).toBe(expected)
    return [a, project] as const
  }
  const both = async (files: Record<string, string>, expected: number) => {
    const viaVitest = makeProject(files)
    const a = await viaVitest.vitest()
    expect(a.code, a.stdout + a.stderr).toBe(expected)
    const viaBin = makeProject(files)
    const b = await viaBin.digline(['run'])
    expect(b.code, b.stdout + b.stderr).toBe(expected)
    return [a, b, viaVitest, viaBin] as const
  }

  test('0: judged and holds, even though some cases fail', async () => {
    const [a] = await both({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 10, answer: "i === 3 ? 'no' : 'ok-' + i", thresholds: '{ passRate: 0.8 }' }) }, 0)
    expect(a.stdout).toContain('digline s holds')
  })

  test('1: a threshold missed', async () => {
    const [a] = await both({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 10, answer: "i < 5 ? 'no' : 'ok-' + i", thresholds: '{ passRate: 0.8 }' }) }, 1)
    expect(a.stdout).toContain('threshold pass_rate: 50.0% < 80.0%')
    expect(a.stdout).toMatch(/digline verdict/)
  })

  test('1: an ordinary Vitest test fails beside a suite that holds', async () => {
    await viaVitest(
      {
        'evals/s.eval.ts': countingSuite({ name: 's', cases: 3 }),
        'evals/plain.eval.ts': `import { test, expect } from 'vitest'\ntest('plain', () => expect(1).toBe(2))\n`,
      },
      1,
    )
  })

  test('2: a case errored; the run is still written and names the cause', async () => {
    const [a, , project] = await both({ 'evals/e.eval.ts': ERRORING }, 2)
    expect(a.stdout).toContain('upstream 529 overloaded')
    const doc = JSON.parse(project.read(`.digline/acme/runs/erroring/${project.runFiles('acme', 'erroring')[0]}`))
    expect(doc.results[1]).toMatchObject({ case_id: 'b', verdict: 'error', error: { cause: 'target' } })
    expect(doc.aggregates.errored).toBe(1)
  })

  test('2 outranks 1 across suites of one launch', async () => {
    await viaVitest(
      {
        'evals/e.eval.ts': ERRORING,
        'evals/s.eval.ts': countingSuite({ name: 's', cases: 4, answer: "'no'", thresholds: '{ passRate: 0.5 }' }),
      },
      2,
    )
  })

  test('64: an invalid suite (an unsafe suite name) is refused and nothing is written', async () => {
    // later keys of an object literal win, so the name overrides the valid definition
    const [a, , project] = await both({ 'evals/bad.eval.ts': invalid(`name: '../escape',`) }, 64)
    expect(a.stdout + a.stderr).toContain('InvalidSuiteError')
    expect(a.stdout).toContain('digline exit 64')
    expect(project.runFiles('acme', 'bad')).toEqual([])
  })

  test('64: invalid plugin options (an unsafe tenant)', async () => {
    const [a] = await both({ 'vitest.config.ts': defaultConfig('../evil'), 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) }, 64)
    expect(a.stdout + a.stderr).toContain('InvalidOptionsError')
  })

  const USER_USAGE_ERROR = `class UsageError extends Error { name = 'UsageError' }`
  const NAMED_TO_STRING = `const UsageError = class extends Error { name = 'toString' }`
  const throwingTarget = (declare: string) => `import { evalSuite, scorers } from 'digline'
${declare}
evalSuite({
  name: 'users',
  cases: [{ id: 'a', input: 1, expected: 1 }, { id: 'b', input: 2, expected: 2 }],
  target: async (x) => { if (x === 2) throw new UsageError('my own usage error'); return x },
  scorers: [scorers.exact()],
})
`
  const throwingFile = (declare: string) => `import { evalSuite, scorers } from 'digline'
${declare}
throw new UsageError('my own usage error at load')
`
  // Each launch holds both look-alikes (a class of the user's named UsageError, an Error named 'toString'):
  // either one taken for a refusal of digline would make the launch exit 64 and print `refused`.
  test.each([
    [
      "a user's own class UsageError and an Error named 'toString', thrown in a target and by suite files,",
      {
        'evals/u.eval.ts': throwingTarget(USER_USAGE_ERROR),
        'evals/t.eval.ts': throwingTarget(NAMED_TO_STRING).replace("name: 'users'", "name: 'users2'"),
        'evals/fu.eval.ts': throwingFile(USER_USAGE_ERROR),
        'evals/ft.eval.ts': throwingFile(NAMED_TO_STRING),
        'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }),
      },
      2,
    ],
    [
      "a user's own class UsageError failing a plain test beside a suite that holds",
      {
        'evals/plain.eval.ts': `import { test } from 'vitest'\n${USER_USAGE_ERROR}\ntest('plain', () => { throw new UsageError('mine') })\n`,
        'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }),
      },
      1,
    ],
  ] as const)('not 64: %s is no refusal of digline', async (_label, files, expected) => {
    const result = await makeProject(files).vitest()
    expect(result.code, result.stdout + result.stderr).toBe(expected)
    expect(result.stdout).not.toContain('refused')
    expect(result.stdout).toContain(`digline exit ${expected}`)
  })
  // a malformed DIGLINE_CREATED_AT (64, nothing written): test/e2e/plain-data.test.ts, which also names the refusal
})
