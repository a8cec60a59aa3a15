// `digline export` / `digline import` (SPEC §10): runs leave one project's file
// store byte for byte and are filed into another's, where `show --json` prints exactly what it
// prints at the source. Every refusal — a file that is not a run document as digline writes it, a
// tenant mismatch, a key filed with other content, a removed key, a retired suite, an export file
// in the way — comes before the first write and leaves every file as it was. The first export and
// the import run through the installed bin; the other commands through main() in this process (ADR 0470).
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import type { RunDocument } from '../../src/document/schema.js'
import { countingSuite, makeProject, type ProcessResult, type Project } from '../helpers/project.js'
import { snapshotTree } from '../store/tree-snapshot.js'
import { inProcess } from './cli-in-process.js'

function tree(project: Project): unknown {
  const root = join(project.dir, '.digline')
  return existsSync(root) ? snapshotTree(root) : 'no store'
}

function refused(result: Omit<ProcessResult, 'signal'>, name: string): void {
  expect(result.code, result.stdout + result.stderr).toBe(64)
  expect(result.stderr).toContain(`refused ${name}:`)
}

test('export writes the filed bytes; import files them elsewhere byte-identical, refusing before any write', async () => {
  const source = makeProject({ 'evals/capitals.eval.ts': countingSuite({ name: 'capitals', cases: 3, extra: 'recordResponses: true,' }) })
  for (const at of ['2026-07-01T10:00:00.000001Z', '2026-07-01T11:00:00.000001Z']) {
    const run = await source.vitest([], { DIGLINE_CREATED_AT: at })
    expect(run.code, run.stdout + run.stderr).toBe(0)
  }
  const files = source.runFiles('acme', 'capitals')
  const [k1, k2] = files.map((f) => f.replace(/\.json$/, '')) as [string, string]
  const filed = (key: string) => readFileSync(join(source.dir, '.digline', 'acme', 'runs', 'capitals', `${key}.json`), 'utf8')

  // Export: the bytes the store holds; again, nothing changes; a file in the way refuses the whole export.
  const exported = await source.digline(['export', '--suite', 'capitals', '--out', 'exp'])
  expect(exported.code, exported.stderr).toBe(0)
  expect(exported.stdout).toContain('Exported 2 run(s) of suite capitals (tenant acme): 2 written, 0 already there.')
  for (const key of [k1, k2]) expect(source.read(`exp/capitals/${key}.json`)).toBe(filed(key))
  const again = await inProcess(source, ['export', '--suite', 'capitals', '--out', 'exp'])
  expect(again.stdout).toContain('0 written, 2 already there.')
  source.write(`blocked/capitals/${k2}.json`, 'something else\n')
  refused(await inProcess(source, ['export', '--suite', 'capitals', '--out', 'blocked']), 'ExportFileOccupiedError')
  expect(existsSync(join(source.dir, 'blocked', 'capitals', `${k1}.json`))).toBe(false)
  expect(source.read(`blocked/capitals/${k2}.json`)).toBe('something else\n')
  const latest = await inProcess(source, ['export', '--suite', 'capitals', '--run', 'latest', '--out', 'one'])
  expect(latest.stdout).toContain('Exported 1 run(s)')
  expect(source.read(`one/capitals/${k2}.json`)).toBe(filed(k2))

  // The other project has no Vitest config: its tenant and store come from the flags.
  const target = makeProject()
  rmSync(join(target.dir, 'vitest.config.ts'))
  const exp = (key: string) => join(source.dir, 'exp', 'capitals', `${key}.json`)
  const importing = (...args: string[]) => inProcess(target, ['import', '--tenant', 'acme', ...args])
  const edited = (key: string, dir: string): string => {
    const doc = JSON.parse(filed(key)) as RunDocument
    target.write(`${dir}/${key}.json`, serializeRun({ ...doc, metadata: { edited: true } }))
    return join(target.dir, dir, `${key}.json`)
  }
  target.write('garbage.json', '{"not": "a run"}\n')
  target.write('reformatted.json', `${JSON.stringify(JSON.parse(filed(k1)), null, 1)}\n`)

  const empty = tree(target)
  refused(await importing(exp(k1), join(target.dir, 'garbage.json')), 'UnreadableRunError')
  const notAsWritten = await importing(join(target.dir, 'reformatted.json'))
  refused(notAsWritten, 'UnreadableRunError')
  expect(notAsWritten.stderr).toContain('not byte for byte a run document as digline writes it')
  refused(await inProcess(target, ['import', '--tenant', 'globex', exp(k1)]), 'TenantMismatchError')
  refused(await importing(exp(k1), edited(k1, 'edited')), 'ImportConflictError')
  expect(tree(target)).toEqual(empty)

  const imported = await target.digline(['import', '--tenant', 'acme', exp(k1), exp(k2)])
  expect(imported.code, imported.stderr).toBe(0)
  expect(imported.stdout).toContain('Imported 2 of 2 run document(s) into tenant acme; 0 were already there.')
  for (const key of [k1, k2]) {
    expect(readFileSync(join(target.dir, '.digline', 'acme', 'runs', 'capitals', `${key}.json`), 'utf8')).toBe(filed(key))
    const there = await inProcess(target, ['show', '--tenant', 'acme', '--suite', 'capitals', '--run', key, '--json'])
    const here = await inProcess(source, ['show', '--suite', 'capitals', '--run', key, '--json'])
    expect(there.code, there.stderr).toBe(0)
    expect(there.stdout).toBe(here.stdout)
  }

  const filedTree = tree(target)
  const twice = await importing(exp(k2), exp(k2))
  expect(twice.code, twice.stderr).toBe(0)
  expect(twice.stdout).toContain(`capitals/${k2}  already filed with these very bytes; left as it is`)
  expect(twice.stdout).toContain(`capitals/${k2}  same document as an earlier file; left out`)
  refused(await importing(edited(k2, 'edited2')), 'ImportConflictError')
  expect(tree(target)).toEqual(filedTree)

  const deleted = await inProcess(target, ['delete', '--tenant', 'acme', '--suite', 'capitals', '--run', k1])
  expect(deleted.code, deleted.stderr).toBe(0)
  const afterDelete = tree(target)
  refused(await importing(exp(k1)), 'RunRemovedError')
  expect(tree(target)).toEqual(afterDelete)

  expect((await inProcess(target, ['retire', '--tenant', 'acme', '--suite', 'capitals'])).code).toBe(0)
  const afterRetire = tree(target)
  const retired = await importing(exp(k2))
  refused(retired, 'SuiteRetiredError')
  expect(tree(target)).toEqual(afterRetire)
  // A retired suite's runs are still exported.
  const fromRetired = await inProcess(target, ['export', '--tenant', 'acme', '--suite', 'capitals', '--out', 'out'])
  expect(fromRetired.code, fromRetired.stderr).toBe(0)
  expect(target.read(`out/capitals/${k2}.json`)).toBe(filed(k2))
})
