// `--resume` runs whole suites (SPEC §6): a test-name filter, or a file filter that leaves the
// resumed suite out, is refused before any call (64); resuming a suite no file declares any more is
// refused (64), never exit 0; `--resume --keep-errors KEY` reads KEY as the key.
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { journalBytes, makeProject } from '../helpers/project.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'

const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }

test('filters and undeclared suites are refused before any call; --keep-errors KEY resumes KEY', async () => {
  const project = makeProject({
    'evals/killed.eval.ts': killSuite({ concurrency: 2 }),
    'evals/other.eval.ts': killSuite({ concurrency: 2, cases: 3, name: 'other' }).replace("'calls.log'", "'other-calls.log'"),
  })
  await killAfterCalls(project, 20, env)
  const key = Object.keys(journalBytes(project))[0]!.split('.')[0]!
  const before = journalBytes(project)
  const calls = callLines(project).length
  const otherCalls = callLines(project, 'other-calls.log').length
  const journaled = (await new FileResultStore({ root: join(project.dir, '.digline') }).pending('acme', 'killed'))[0]!.done.size

  const refusedBeforeAnyCall = async (args: string[], name: string, says: string) => {
    const result = await project.digline(['run', ...args])
    const out = result.stdout + result.stderr
    expect(result.code, out).toBe(64)
    expect(out).toContain(name)
    expect(out).toContain(says)
    expect(callLines(project).length, out).toBe(calls)
    expect(callLines(project, 'other-calls.log').length, out).toBe(otherCalls)
    expect(journalBytes(project)).toEqual(before)
    return out
  }
  await refusedBeforeAnyCall(['--resume', '-t', 'c019'], 'ResumeFilteredError', `digline run --resume (without -t)`)
  await refusedBeforeAnyCall(['--resume', key, '-t', 'c01'], 'ResumeFilteredError', `digline run --resume ${key} (without -t)`)
  await refusedBeforeAnyCall(['--resume', 'evals/other.eval.ts'], 'ResumeFilteredError', 'leaves out the file of suite killed')
  const original = project.read('evals/killed.eval.ts')
  project.write('evals/killed.eval.ts', killSuite({ concurrency: 2, name: 'renamed' }))
  await refusedBeforeAnyCall(['--resume'], 'ResumedSuiteNotDeclaredError', `run ${key} is of suite killed, which no suite file`)
  project.write('evals/killed.eval.ts', original)

  const resumed = await project.digline(['run', '--resume', '--keep-errors', key])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(resumed.stderr).toContain(`resuming run ${key} of suite killed`)
  expect(resumed.stderr).toContain(`${100 - journaled} of 100 cases`)
  expect(callLines(project).length - calls).toBe(100 - journaled)
  expect(project.runFiles('acme', 'killed')).toEqual([`${key}.json`])
})
