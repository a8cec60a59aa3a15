// `digline run --suite S` runs suite S (issue 23 item 16): vitest gets the files that declare it, the
// other suites are skipped, and a suite no file declares is refused before any call.
import { expect, test } from 'vitest'
import { callLines } from '../helpers/kill.js'
import { countingSuite, makeProject } from '../helpers/project.js'

test('digline run --suite S calls the cases of S only and files its run; an undeclared S is refused (64)', async () => {
  const other = countingSuite({ name: 'other', cases: 2 }).replace("'calls.log'", "'other-calls.log'")
  // The file of S declares another suite too: that one is skipped.
  const paired = countingSuite({ name: 'paired', cases: 2 })
    .replace("'calls.log'", "'paired-calls.log'")
    .replace(/^import .*\n/gm, '')
    .replace('const cases =', 'const pairedCases =')
    .replace('  cases,\n', '  cases: pairedCases,\n')
  const project = makeProject({ 'evals/triage.eval.ts': countingSuite({ name: 'triage', cases: 3 }) + paired, 'evals/other.eval.ts': other })
  const ran = await project.digline(['run', '--suite', 'triage'])
  expect(ran.code, ran.stdout + ran.stderr).toBe(0)
  expect(callLines(project)).toHaveLength(3)
  expect(callLines(project, 'other-calls.log')).toEqual([])
  expect(callLines(project, 'paired-calls.log')).toEqual([])
  expect(project.runFiles('acme', 'triage')).toHaveLength(1)
  expect(project.runFiles('acme', 'other')).toEqual([])

  const nowhere = await project.digline(['run', '--suite', 'nowhere'])
  expect(nowhere.code, nowhere.stdout + nowhere.stderr).toBe(64)
  expect(nowhere.stderr).toContain('SuiteNotDeclaredError: suite nowhere is not declared by any suite file this launch runs')
  expect(callLines(project)).toHaveLength(3)
})
