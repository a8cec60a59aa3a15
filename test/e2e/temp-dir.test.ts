// TMPDIR (or TMP, TEMP) pointing at a file: the launch is refused by name (64), naming the variable
// and what to do, and nothing is called — in `vitest run` (the plugin's claims directory) and in
// `digline run --suite S` (the suite manifest the CLI reads first).
import { expect, test } from 'vitest'
import { join } from 'node:path'
import { callLines } from '../helpers/kill.js'
import { countingSuite, makeProject } from '../helpers/project.js'

test('TMPDIR naming a file: vitest run and digline run --suite are refused with TempDirUnusableError (64), nothing called', { timeout: 400_000 }, async () => {
  const project = makeProject({ 'evals/triage.eval.ts': countingSuite({ name: 'triage', cases: 2 }), 'not-a-dir': 'a file\n' })
  const file = join(project.dir, 'not-a-dir')
  const launches: [(args: string[], env: NodeJS.ProcessEnv) => ReturnType<typeof project.vitest>, string[]][] = [
    [project.vitest, []],
    [project.digline, ['run', '--suite', 'triage']],
  ]
  for (const [run, args] of launches) {
    const result = await run(args, { TMPDIR: file })
    const out = result.stdout + result.stderr
    expect(result.code, out).toBe(64)
    expect(out).toContain('TempDirUnusableError')
    expect(out).toContain(`digline could not make a temporary directory in ${file} (from TMPDIR): it is not a directory`)
    expect(out).toContain('Point TMPDIR at a writable directory')
    // Vite's own failure to load the file may be named beside it; digline's is a refusal, never an internal error
    expect(out).not.toMatch(/InternalError|internal error/)
  }
  expect(callLines(project)).toEqual([])
  expect(project.runFiles('acme', 'triage')).toEqual([])
})
