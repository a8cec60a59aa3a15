// The bin's read commands over documents a real `vitest run` wrote.
import { expect, test } from 'vitest'
import { countingSuite, makeProject } from '../helpers/project.js'

test('digline list and show read back what vitest run wrote', async () => {
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 6, answer: "i === 2 ? 'no' : 'ok-' + i" }) })
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-01-01T00:00:00.000001Z' })).code).toBe(0)
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
  expect((await project.vitest()).code).toBe(0)
  const other = await project.digline(['list', '--suite', 's', '--tenant', 'other'])
  expect(other.code).toBe(0)
  expect(other.stdout).toContain('No runs of suite s in tenant other')

  const missing = await project.digline(['show', '--suite', 's', '--run', '20200101T000000000000Z-000000000000'])
  expect(missing.code).toBe(64)
  expect(missing.stderr).toContain('RunNotFoundError')
  expect(missing.stderr).toContain('digline list --suite s')

  const unsafe = await project.digline(['show', '--suite', '../x', '--run', 'latest'])
  expect(unsafe.code).toBe(64)
  expect(unsafe.stderr).toContain('PathRefusedError')

  const unknownFlag = await project.digline(['list', '--suite', 's', '--bogus'])
  expect(unknownFlag.code).toBe(64)
  expect(unknownFlag.stderr).toContain('UsageError')

  const unknownCommand = await project.digline(['frobnicate'])
  expect(unknownCommand.code).toBe(64)

  for (const command of ['run', 'list', 'show']) {
    const help = await project.digline([command, '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(`Usage: digline ${command}`)
  }
})

test('without a config, --tenant and --store are enough; without either, a named refusal', async () => {
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
  expect((await project.vitest()).code).toBe(0)
  project.write('vitest.config.ts', 'export default {}\n')
  const refused = await project.digline(['list', '--suite', 's'])
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('ConfigNotFoundError')
  const listed = await project.digline(['list', '--suite', 's', '--tenant', 'acme', '--store', '.digline'])
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
  expect((await project.digline(['promote', '--suite', 's', '--run', sKey])).code).toBe(0)

  const runs = await project.digline(['list', '--suite', 's'])
  expect(runs.stdout).toMatch(/ [0-9a-f]{12}-dirty /)

  const suites = await project.digline(['list'])
  expect(suites.code, suites.stderr).toBe(0)
  expect(suites.stdout).toContain(`s  1 run(s)  latest ${sKey}  baseline ${sKey}`)
  expect(suites.stdout).toMatch(/t {2}1 run\(s\) {2}latest \S+ {2}no baseline/)
  const json = JSON.parse((await project.digline(['list', '--json'])).stdout)
  expect(json.suites.map((l: { suite: string }) => l.suite)).toEqual(['s', 't'])

  const shown = JSON.parse((await project.digline(['show', '--suite', 's', '--run', 'latest', '--json'])).stdout)
  expect(shown.key).toBe(sKey)
})
