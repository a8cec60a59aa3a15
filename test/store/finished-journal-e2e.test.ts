// SPEC §6 end to end: a plain `vitest run` keeps a pending journal whatever sits at its run
// document's path, unless it is that run's own readable document, and names what it found.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { killAfterCalls, killSuite } from '../helpers/kill.js'
import { journalBytes, makeProject } from '../helpers/project.js'

test('an empty file, a torn document, a directory or another run’s document at the path: the journal is kept and named', async () => {
  const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 2 }) })
  await killAfterCalls(project, 20, { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' })
  const legs = () => journalBytes(project)
  const before = legs()
  const key = Object.keys(before)[0]!.split('.')[0]!
  const document = join(project.dir, '.digline', 'acme', 'runs', 'killed', `${key}.json`)
  const plants: [string, () => void][] = [
    ['an empty file', () => writeFileSync(document, '')],
    ['a torn document', () => writeFileSync(document, '{"not":"a run"')],
    ['a directory', () => mkdirSync(document)],
    [
      'another run’s document',
      () =>
        writeFileSync(
          document,
          readFileSync(
            join(
              project.dir,
              '.digline',
              'acme',
              'runs',
              'killed',
              project.runFiles('acme', 'killed').find((f) => f !== `${key}.json`)!,
            ),
          ),
        ),
    ],
  ]
  for (const [what, plant] of plants) {
    plant()
    const result = await project.vitest()
    expect(result.code, `${what}: ${result.stdout}${result.stderr}`).toBe(0)
    expect(result.stderr, what).toContain('RunPathOccupiedError')
    expect(result.stderr, what).toContain(document)
    expect(legs(), what).toEqual(before)
    rmSync(document, { recursive: true, force: true })
  }
})
