// SPEC §6 end to end: a plain `vitest run` keeps a pending journal when something other than its
// run's own readable document sits at the document's path, and names what it found. The table of
// what may sit there (an empty file, a torn document, a directory, another run's document) is held
// in process by test/store/journal-binding.test.ts; this file proves the wiring once, through a
// real killed launch and a real `vitest run`.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { killAfterCalls, killSuite } from '../helpers/kill.js'
import { journalBytes, makeProject } from '../helpers/project.js'

test('a torn document at the path of a killed run: the next vitest run keeps the journal and names the path', async () => {
  const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 2 }) })
  await killAfterCalls(project, 20, { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' })
  const before = journalBytes(project)
  const key = Object.keys(before)[0]!.split('.')[0]!
  const document = join(project.dir, '.digline', 'acme', 'runs', 'killed', `${key}.json`)
  writeFileSync(document, '{"not":"a run"')
  const result = await project.vitest()
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0)
  expect(result.stderr).toContain('RunPathOccupiedError')
  expect(result.stderr).toContain(document)
  expect(journalBytes(project)).toEqual(before)
})
