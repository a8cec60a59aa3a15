// `pg` is an optional peer: a project without it can open a team store (nothing is imported yet),
// and its first use is refused by name, naming `npm install -D pg`. The store runs in a child process
// whose node_modules holds every package of the repository but pg.
import { execFile } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compileStoreForChild, type ChildStore } from '../child-store.js'

const REPO = resolve(import.meta.dirname, '..', '..', '..')
let child: ChildStore

beforeAll(() => {
  child = compileStoreForChild()
  const dir = child.storeModule.slice(0, -join('src', 'store', 'index.js').length)
  const modules = join(dir, 'node_modules')
  rmSync(modules)
  mkdirSync(modules)
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry !== 'pg' && !entry.startsWith('.')) symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry))
  }
})
afterAll(() => child?.cleanup())

test('without pg installed, openStore of a postgres:// URL succeeds and its first use is refused with MissingPeerDependencyError naming `npm install -D pg`', async () => {
  const script = `
    const { openStore } = await import(${JSON.stringify(child.storeModule)})
    const store = openStore({ store: 'postgres://postgres:Pw-never-shown@127.0.0.1:5432/postgres' })
    try {
      await store.listRuns('acme', 'capitals')
      console.log(JSON.stringify({ ok: true }))
    } catch (error) {
      console.log(JSON.stringify({ name: error.name, exitCode: error.exitCode, message: error.message }))
    }`
  const stdout = await new Promise<string>((resolvePromise, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: '/', timeout: 60_000 }, (error, out, err) =>
      error === null ? resolvePromise(out) : reject(new Error(`${error.message}\n${err}`)),
    ),
  )
  const outcome = JSON.parse(stdout.trim().split('\n').pop()!) as { name?: string; exitCode?: number; message?: string }
  expect(outcome.name).toBe('MissingPeerDependencyError')
  expect(outcome.exitCode).toBe(64)
  expect(outcome.message).toContain('npm install -D pg')
  expect(outcome.message).not.toContain('Pw-never-shown')
})
