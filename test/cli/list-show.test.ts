// The bin's read commands over documents a real `vitest run` wrote. Each of list, list --json, show
// and show --json goes through the real bin once (the first test); the refusals, the help and the
// listings that only need a run in the store call the CLI's main() in-process over runs written
// through the store, so this file starts 2 `vitest run` and 6 `digline` processes, not 6 and 19.
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { openStore } from '../../src/store/open-store.js'
import { makeRun, promoteFirst } from '../helpers/make-run.js'
import { countingSuite, makeProject, type ProcessResult, type Project } from '../helpers/project.js'

/** The CLI's main() in the project's directory, as bin.ts calls it (a line per text). */
async function inProcess(project: Project, argv: string[]): Promise<Omit<ProcessResult, 'signal'>> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    cwd: project.dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' },
    stdout: (text) => void (stdout += `${text}\n`),
    stderr: (text) => void (stderr += `${text}\n`),
  })
  return { code, stdout, stderr }
}

/** Files a run of suite `s` (tenant acme, 6 cases, one failing) through the store, as a `vitest run` would. */
async function fileRun(project: Project, createdAt: string): Promise<void> {
  const store = openStore({ store: join(project.dir, '.digline') })
  await store.writeRun(makeRun({ suite: 's', createdAt, results: 6 }))
  await store.close()
}

test('digline list and show read back what vitest run wrote', async () => {
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 6, answer: "i === 2 ? 'no' : 'ok-' + i" }) })
  // the earlier run through the store (6 cases, 5 passed, as the suite's); the latest from a real `vitest run`
  await fileRun(project, '2026-01-01T00:00:00.000001Z')
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-02T00:00:00.000001Z' })).code).toBe(0)
  const keys = project.runFiles('acme', 's').map((f) => f.replace(/\.json$/, ''))
  expect(keys).toHaveLength(2)

  const list = await project.digline(['list', '--suite', 's'])
  expect(list.code, list.stderr).toBe(0)
  expect(
    list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]),
  ).toEqual(keys)
  expect(list.stdout).toContain('pass rate 83.3%')

  const json = await project.digline(['list', '--suite', 's', '--json'])
  const listing = JSON.parse(json.stdout)
  expect(listing.runs.map((r: { key: string }) => r.key)).toEqual(keys)

  const show = await project.digline(['show', '--suite', 's', '--run', 'latest'])
  expect(show.code, show.stderr).toBe(0)
  expect(show.stdout).toContain('created_at 2026-01-02T00:00:00.000001Z')
  expect(show.stdout).toMatch(/fail\s+c002/)

  const doc = JSON.parse((await project.digline(['show', '--suite', 's', '--run', keys[0]!, '--json'])).stdout)
  expect(doc.created_at).toBe('2026-01-01T00:00:00.000001Z')
  expect(doc.results).toHaveLength(6)
})

test('--tenant and --store override the config; unknown runs and bad usage are refused with 64', async () => {
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
  await fileRun(project, '2026-01-01T00:00:00.000001Z')
  const other = await inProcess(project, ['list', '--suite', 's', '--tenant', 'other'])
  expect(other.code).toBe(0)
  expect(other.stdout).toContain('No runs of suite s in tenant other')

  const missing = await project.digline(['show', '--suite', 's', '--run', '20200101T000000000000Z-000000000000'])
  expect(missing.code).toBe(64)
  expect(missing.stderr).toContain('RunNotFoundError')
  expect(missing.stderr).toContain('digline list --suite s')

  const unsafe = await inProcess(project, ['show', '--suite', '../x', '--run', 'latest'])
  expect(unsafe.code).toBe(64)
  expect(unsafe.stderr).toContain('PathRefusedError')

  const unknownFlag = await inProcess(project, ['list', '--suite', 's', '--bogus'])
  expect(unknownFlag.code).toBe(64)
  expect(unknownFlag.stderr).toContain('UsageError')

  const unknownCommand = await inProcess(project, ['frobnicate'])
  expect(unknownCommand.code).toBe(64)

  for (const command of ['run', 'list', 'show']) {
    const help = await inProcess(project, [command, '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(`Usage: digline ${command}`)
  }
})

test('without a config, --tenant and --store are enough; without either, a named refusal', async () => {
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
  await fileRun(project, '2026-01-01T00:00:00.000001Z')
  project.write('vitest.config.ts', 'export default {}\n')
  const refused = await inProcess(project, ['list', '--suite', 's'])
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('ConfigNotFoundError')
  const listed = await inProcess(project, ['list', '--suite', 's', '--tenant', 'acme', '--store', '.digline'])
  expect(listed.code, listed.stderr).toBe(0)
  expect(listed.stdout.trim().split('\n')).toHaveLength(1)
})

test('list without --suite names the suites with their latest run and baseline; -dirty survives; show --json names its key', async () => {
  const { execFileSync } = await import('node:child_process')
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }), 'evals/t.eval.ts': countingSuite({ name: 't', cases: 2 }) })
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: project.dir })
  git('init', '-q')
  project.write('.gitignore', '.digline/\ncalls.log\n')
  git('add', '-A')
  git('commit', '-qm', 'one')
  project.write('NOTES.md', 'x')
  git('add', 'NOTES.md') // a staged change: the work tree is dirty
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-01T00:00:00.000001Z' })).code).toBe(0)
  const sKey = project.runFiles('acme', 's')[0]!.replace('.json', '')
  // the baseline through the store: this test is about what list says of it, not about promote
  const store = openStore({ store: join(project.dir, '.digline') })
  await promoteFirst(store, await store.readRun('acme', 's', sKey), '2026-01-01T01:00:00.000001Z')
  await store.close()

  const runs = await inProcess(project, ['list', '--suite', 's'])
  expect(runs.stdout).toMatch(/ [0-9a-f]{12}-dirty /)

  const suites = await project.digline(['list'])
  expect(suites.code, suites.stderr).toBe(0)
  expect(suites.stdout).toContain(`s  1 run(s)  latest ${sKey}  baseline ${sKey}`)
  expect(suites.stdout).toMatch(/t {2}1 run\(s\) {2}latest \S+ {2}no baseline/)
  const json = JSON.parse((await inProcess(project, ['list', '--json'])).stdout)
  expect(json.suites.map((l: { suite: string }) => l.suite)).toEqual(['s', 't'])

  const shown = JSON.parse((await inProcess(project, ['show', '--suite', 's', '--run', 'latest', '--json'])).stdout)
  expect(shown.key).toBe(sKey)
})
