// SPEC §5 from a real `vitest run` and from `digline run`: 0, 1, 2 and 64. Which code a launch earns
// is exitCodeForLaunch's table and which child exit `digline run` passes on is exitCodeForChild's
// (test/unit/error-recognition.test.ts); which definitions are refused is resolveSuite's
// (test/unit/suite/invalid-definitions.test.ts). Here each code is earned once through both doors,
// and each way of earning one (a plain test, an errored case, a refusal in the worker or the config) once.
// This file also runs on the Node 22 leg, so launches that prove things of the same kind share one:
// the errored case and "2 outranks 1" are one launch per door, the plain failing tests one launch.
// Code 1 goes through the Vitest door by a missed threshold and through `digline run` by a plain
// failing test (ADR 0505): `digline run` passes its child's code on, whichever way the child earned
// it. The user's look-alikes of a refusal ride in the Vitest door's launch of code 2, where taking any
// one for a refusal would make the launch exit 64; the errored case earns 2 alone in the other door.
import { describe, expect, test } from 'vitest'
import { countingSuite, defaultConfig, makeProject, type ProcessResult, type Project } from '../helpers/project.js'

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
    const [a] = await viaVitest({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 10, answer: "i < 5 ? 'no' : 'ok-' + i", thresholds: '{ passRate: 0.8 }' }) }, 1)
    expect(a.stdout).toContain('threshold pass_rate: 50.0% < 80.0%')
    expect(a.stdout).toMatch(/digline verdict/)
  })

  const USER_USAGE_ERROR = `class UsageError extends Error { name = 'UsageError' }`
  // A user's own class UsageError failing a plain test is no refusal of digline either: taken for one,
  // the launch would exit 64 and print `refused`.
  test("1 through `digline run`: an ordinary Vitest test fails beside a suite that holds, and a user's own class UsageError failing a plain test is no refusal of digline", async () => {
    const result = await makeProject({
      'evals/s.eval.ts': countingSuite({ name: 's', cases: 3 }),
      'evals/plain.eval.ts': `import { test, expect } from 'vitest'\n${USER_USAGE_ERROR}\ntest('plain', () => expect(1).toBe(2))\ntest('mine', () => { throw new UsageError('mine') })\n`,
    }).digline(['run'])
    expect(result.code, result.stdout + result.stderr).toBe(1)
    expect(result.stdout).not.toContain('refused')
    expect(result.stdout).toContain('digline exit 1')
  })

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
  // s misses its threshold (1) beside the errored case (2): the launch, through either door, exits 2
  const ERRORED = { 'evals/e.eval.ts': ERRORING, 'evals/s.eval.ts': countingSuite({ name: 's', cases: 4, answer: "'no'", thresholds: '{ passRate: 0.5 }' }) }
  // The Vitest door's launch also holds the look-alikes (a class of the user's named UsageError, an
  // Error named 'toString', thrown in a target and by suite files); `digline run`'s holds the two alone,
  // so the errored case earns its 2 there with nothing beside it.
  let lookAlikes: Promise<readonly [ProcessResult, Project]> | undefined
  const withLookAlikes = () =>
    (lookAlikes ??= viaVitest(
      {
        ...ERRORED,
        'evals/u.eval.ts': throwingTarget(USER_USAGE_ERROR),
        'evals/t.eval.ts': throwingTarget(NAMED_TO_STRING).replace("name: 'users'", "name: 'users2'"),
        'evals/fu.eval.ts': throwingFile(USER_USAGE_ERROR),
        'evals/ft.eval.ts': throwingFile(NAMED_TO_STRING),
      },
      2,
    ))

  test('2: a case errored; the run is still written and names the cause; 2 outranks 1 across suites of one launch', async () => {
    const viaBin = makeProject(ERRORED)
    const b = await viaBin.digline(['run'])
    expect(b.code, b.stdout + b.stderr).toBe(2)
    const [a, viaVitestProject] = await withLookAlikes()
    for (const [out, project] of [
      [b.stdout, viaBin],
      [a.stdout, viaVitestProject],
    ] as const) {
      expect(out).toContain('upstream 529 overloaded')
      expect(out).toContain('threshold pass_rate: 0.0% < 50.0%')
      const doc = JSON.parse(project.read(`.digline/acme/runs/erroring/${project.runFiles('acme', 'erroring')[0]}`))
      expect(doc.results[1]).toMatchObject({ case_id: 'b', verdict: 'error', error: { cause: 'target' } })
      expect(doc.aggregates.errored).toBe(1)
    }
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

  test("not 64: a user's own class UsageError and an Error named 'toString', thrown in a target and by suite files, is no refusal of digline", async () => {
    const [result] = await withLookAlikes()
    expect(result.stdout).not.toContain('refused')
    expect(result.stdout).toContain('digline exit 2')
  })
  // a malformed DIGLINE_CREATED_AT (64, nothing written): test/e2e/plain-data.test.ts, which also names the refusal
})
