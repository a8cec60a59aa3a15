// Issue 30 item 3, the decisions of `digline init` in-process on real temp directories: which config
// name a package gets, the tenant it is given, and that a refusal lists every file in the way and
// writes nothing.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { main } from '../../../src/cli/main.js'
import { applyInit, planInit } from '../../../src/host/index.js'
import { snapshotTree } from '../../store/tree-snapshot.js'

function tempProject(pkg?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'digline-init-'))
  if (pkg !== undefined) writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg))
  return dir
}

async function cli(argv: string[], cwd: string) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { cwd, env: {}, stdout: (t) => out.push(t), stderr: (t) => err.push(t) })
  return { code, stdout: out.join('\n'), stderr: err.join('\n') }
}

test('an ESM package gets vitest.config.ts; a CommonJS one, or none, gets vitest.config.mts', () => {
  expect(planInit(tempProject({ name: 'a', type: 'module' })).files[0]!.path).toBe('vitest.config.ts')
  expect(planInit(tempProject({ name: 'a', type: 'commonjs' })).files[0]!.path).toBe('vitest.config.mts')
  expect(planInit(tempProject({ name: 'a' })).files[0]!.path).toBe('vitest.config.mts')
  expect(planInit(tempProject()).commonJs).toBe(true)
})

test('the tenant is the package name as one safe segment, or --tenant', () => {
  expect(planInit(tempProject({ name: '@acme/Support Bot' })).tenant).toBe('Support-Bot')
  expect(planInit(tempProject({ name: '---' })).tenant).toBe('local')
  expect(planInit(tempProject({ name: 'x' }), 'team-a').tenant).toBe('team-a')
  expect(planInit(tempProject({ name: 'x' }), 'team-a').files[0]!.text).toContain(`tenant: "team-a"`)
})

test('the next two commands install digline and vitest unless the package already lists them', () => {
  expect(planInit(tempProject({ name: 'x' })).next).toEqual(['npm install --save-dev digline vitest', 'npx vitest run'])
  expect(planInit(tempProject({ name: 'x', devDependencies: { digline: '*', vitest: '*' } })).next).toEqual(['npx vitest run', 'npx digline promote --suite capitals --run latest'])
})

test('another Vite or Vitest config, or any file init writes, is refused by name with nothing written', async () => {
  const dir = tempProject({ name: 'x', type: 'module' })
  writeFileSync(join(dir, 'vite.config.js'), 'export default {}\n')
  mkdirSync(join(dir, 'evals'))
  writeFileSync(join(dir, 'evals', 'capitals.jsonl'), '{}\n')
  const before = snapshotTree(dir)
  const refused = await cli(['init'], dir)
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('refused InitWouldOverwriteError')
  expect(refused.stderr).toContain('2 files that exist')
  expect(refused.stderr).toContain('vite.config.js, evals/capitals.jsonl')
  expect(refused.stderr).toContain('next: Move them aside')
  expect(snapshotTree(dir)).toEqual(before)
})

test('a file that appears between the plan and the writes undoes what init had written', () => {
  const dir = tempProject({ name: 'x', type: 'module' })
  const plan = planInit(dir)
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true })
  writeFileSync(join(dir, '.github', 'workflows', 'digline.yml'), 'mine\n')
  expect(() => applyInit(plan)).toThrow(/InitWouldOverwriteError|appeared while init was writing/)
  for (const file of plan.files.slice(0, 4)) expect(() => snapshotTree(join(dir, file.path))).toThrow(/ENOENT/)
})

test('a bad --tenant is refused before anything is written', async () => {
  const dir = tempProject({ name: 'x' })
  const before = snapshotTree(dir)
  const refused = await cli(['init', '--tenant', '../up'], dir)
  expect(refused.code).toBe(64)
  expect(snapshotTree(dir)).toEqual(before)
})
