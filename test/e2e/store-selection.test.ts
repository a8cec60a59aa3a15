// Which store a launch uses (SPEC §2): the `store` option, DIGLINE_STORE over it for a launch, and
// `--store` over both for one command. A postgres URL is refused by name (64) until the team store
// exists, and its credentials never reach a message.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'

let project: Project

beforeAll(() => {
  project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 3 }) })
})

describe('DIGLINE_STORE', () => {
  test('overrides the store option for vitest run and for every digline command; --store overrides it', async () => {
    const run = await project.vitest([], { DIGLINE_STORE: 'ci-store', DIGLINE_CREATED_AT: '2026-11-01T10:00:00.000001Z' })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const runs = join(project.dir, 'ci-store', 'acme', 'runs', 's')
    expect(readdirSync(runs).filter((n) => n.endsWith('.json'))).toHaveLength(1)
    expect(existsSync(join(project.dir, '.digline', 'acme'))).toBe(false)

    const listed = await project.digline(['list', '--suite', 's', '--json'], { DIGLINE_STORE: 'ci-store' })
    expect(listed.code, listed.stderr).toBe(0)
    expect(JSON.stringify(JSON.parse(listed.stdout))).toContain('20261101T100000000001Z')

    const configured = await project.digline(['list', '--suite', 's', '--json'])
    expect(configured.code, configured.stderr).toBe(0)
    expect(listed.stdout).not.toBe(configured.stdout)
    expect(configured.stdout).not.toContain('20261101T100000000001Z')

    const flag = await project.digline(['list', '--suite', 's', '--json', '--store', '.digline'], { DIGLINE_STORE: 'ci-store' })
    expect(flag.code, flag.stderr).toBe(0)
    expect(flag.stdout).not.toContain('20261101T100000000001Z')
  })

  test.each(['postgres://ci:s3cr3t-pw@db.example:5432/evals', 'postgresql://db.example/evals?password=s3cr3t-pw'])(
    'a team store URL (%s) is refused by name, naming the issue that brings it, and leaks no credential',
    async (url) => {
      const run = await project.vitest([], { DIGLINE_STORE: url })
      expect(run.code, run.stdout + run.stderr).toBe(64)
      // The plugin passes option refusals to the worker as InvalidOptionsError; the message is the store's.
      expect(run.stdout + run.stderr).toContain('it names the team store on PostgreSQL, which this version of digline does not have (it comes with issue 13')
      expect(run.stdout + run.stderr).not.toContain('s3cr3t')

      const list = await project.digline(['list', '--suite', 's'], { DIGLINE_STORE: url })
      expect(list.code, list.stdout + list.stderr).toBe(64)
      expect(list.stderr).toContain('refused TeamStoreUnavailableError: ')
      expect(list.stderr).toContain('db.example')
      expect(list.stderr).not.toContain('s3cr3t')
      expect(list.stderr).toMatch(/\n {2}next: \S/)
    },
  )
})
