// A command about one suite learns it as declared now with `vitest list` over the files that name it
// (ADR 0500): rejudge, promote, cache why and resume collect no other suite file; a suite moved to a
// file that does not name it is found by listing every file, as before.
import { beforeAll, expect, test } from 'vitest'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'
import { countingSuite, journalBytes, makeProject, type Project } from '../helpers/project.js'

const caps = countingSuite({ name: 'caps', cases: 3, extra: 'recordResponses: true, cache: true,' })
/** Says in listed.log each time `vitest list` for digline (DIGLINE_MANIFEST) collects it. */
const other = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'
if (process.env.DIGLINE_MANIFEST) appendFileSync('listed.log', 'other\\n')
evalSuite({ name: 'other', cases: [{ id: 'a', input: 1, expected: 1 }], target: async (i) => i, scorers: [scorers.exact()] })
`

let project: Project
let pending: string
let source: string
const listed = () => callLines(project, 'listed.log')

beforeAll(async () => {
  project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 1, cases: 40 }), 'evals/other.eval.ts': other })
  await killAfterCalls(project, 5, { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' })
  pending = Object.keys(journalBytes(project))[0]!.split('.')[0]!
  project.write('evals/caps.eval.ts', caps)
  const first = await project.vitest(['evals/caps.eval.ts'], { DIGLINE_CREATED_AT: '2026-11-30T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  source = project.runFiles('acme', 'caps')[0]!.replace('.json', '')
  project.write('listed.log', '')
})

test('rejudge and promote list only the file of their suite', async () => {
  const rejudged = await project.digline(['rejudge', '--suite', 'caps', '--run', source])
  expect(rejudged.code, rejudged.stdout + rejudged.stderr).toBe(0)
  expect(rejudged.stdout).toContain('Filed replay')
  expect(listed(), 'rejudge').toEqual([])

  const promoted = await project.digline(['promote', '--suite', 'caps', '--run', source])
  expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
  expect(listed(), 'promote').toEqual([])
})

test('cache why and resume list only the file of their suite', async () => {
  const why = await project.digline(['cache', 'why', '--suite', 'caps', '--case', 'c001'])
  expect(why.code, why.stdout + why.stderr).toBe(0)
  expect(why.stdout).toContain('case c001 of suite caps, sample 0: cached')
  expect(listed(), 'cache why').toEqual([])

  const resumed = await project.digline(['run', '--resume', pending])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(resumed.stderr).toContain(`resuming run ${pending} of suite killed`)
  expect(listed(), 'resume').toEqual([])
})

test('a suite moved to a file that names it through a constant is found by listing every file', async () => {
  // Its old file still mentions it, so that file is listed first and found wanting.
  project.write('evals/names.ts', `export const CAPS = 'caps'\n`)
  project.write('evals/moved.eval.ts', `import { CAPS } from './names'\n${caps.replace('name: "caps"', 'name: CAPS')}`)
  project.write('evals/caps.eval.ts', `// suite 'caps' moved to evals/moved.eval.ts\n${caps.replace('name: "caps"', 'name: "renamed"')}`)
  const before = project.runFiles('acme', 'caps').length
  project.write('listed.log', '')
  const moved = await project.digline(['rejudge', '--suite', 'caps', '--run', source])
  expect(moved.code, moved.stdout + moved.stderr).toBe(0)
  expect(moved.stdout).toContain('Filed replay')
  expect(listed(), 'every file is listed once the narrowed listing lacks the suite').toEqual(['other'])
  expect(project.runFiles('acme', 'caps')).toHaveLength(before + 1)
})
