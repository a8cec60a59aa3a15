// Issue 30 item 3 with real processes: a package as `npm init -y` writes it ("type": "commonjs"),
// `digline init` from the installed bin, then `vitest run` there passes; a second init is refused
// with every file in the way named and nothing changed. A CommonJS project that imports the plugin
// from a vitest.config.ts without init gets CommonJsConfigError, from Vitest and from the CLI alike.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { makeProject } from '../helpers/project.js'
import { snapshotTree } from '../store/tree-snapshot.js'

/** What `npm init -y` (npm 11) writes. */
function npmInitPackage(name: string): string {
  const pkg = {
    name,
    version: '1.0.0',
    description: '',
    main: 'index.js',
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: '',
    license: 'ISC',
    type: 'commonjs',
  }
  return JSON.stringify(pkg, null, 2) + '\n'
}

const WRITTEN = ['vitest.config.mts', 'evals/capitals.eval.ts', 'evals/capitals.jsonl', '.digline/.gitignore', '.github/workflows/digline.yml']

test('init in a CommonJS package writes a project whose vitest run passes, and a second init changes nothing', async () => {
  const project = makeProject({ 'package.json': npmInitPackage('my-evals') })
  rmSync(join(project.dir, 'vitest.config.ts'))

  const init = await project.digline(['init'])
  expect(init.code, init.stdout + init.stderr).toBe(0)
  for (const path of WRITTEN) expect(init.stdout).toContain(path)
  expect(init.stdout).toContain('tenant my-evals')
  expect(init.stdout).toMatch(/Next:\n {2}npm install --save-dev digline vitest\n {2}npx vitest run/)

  const run = await project.vitest()
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect(project.runFiles('my-evals', 'capitals')).toHaveLength(1)
  expect(run.stdout).toContain('3 cases × 1 sample · pass rate 100.0%')

  const before = snapshotTree(project.dir)
  const again = await project.digline(['init'])
  expect(again.code, again.stdout + again.stderr).toBe(64)
  expect(again.stderr).toContain('InitWouldOverwriteError')
  for (const path of WRITTEN) expect(again.stderr).toContain(path)
  expect(again.stderr).toContain('next: ')
  expect(snapshotTree(project.dir)).toEqual(before)
})

test('a CommonJS package whose vitest.config.ts imports the plugin is refused by name, saying what to rename', async () => {
  const project = makeProject({ 'package.json': npmInitPackage('plain-cjs') })
  const run = await project.vitest()
  expect(run.code).not.toBe(0)
  const output = run.stdout + run.stderr
  expect(output).toContain('CommonJsConfigError')
  expect(output).toContain(`rename ${join(project.dir, 'vitest.config.ts')} to ${join(project.dir, 'vitest.config.mts')}`)
  expect(output).not.toContain('This package is ESM only')

  const listed = await project.digline(['list'])
  expect(listed.code, listed.stdout + listed.stderr).toBe(64)
  expect(listed.stderr).toContain('refused CommonJsConfigError')
  expect(listed.stderr).toContain('"type": "module"')
})
