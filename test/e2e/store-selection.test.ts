// Which store a launch uses (SPEC §2): the `store` option, DIGLINE_STORE over it for a launch, and
// `--store` over both for one command. A postgres URL opens the team store (test/e2e/team-store.test.ts);
// one whose server cannot be reached fails by name, and its credentials never reach a message.
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

  test.each(['postgres://ci:s3cr3t-pw@127.0.0.1:1/evals', 'postgresql://127.0.0.1:1/evals?password=s3cr3t-pw'])(
    'a team store URL (%s) whose server cannot be reached fails by name, and leaks no credential',
    async (url) => {
      const run = await project.vitest([], { DIGLINE_STORE: url })
      expect(run.code, run.stdout + run.stderr).not.toBe(0)
      expect(run.stdout + run.stderr).toContain('TeamStoreUnreachableError')
      expect(run.stdout + run.stderr).not.toContain('s3cr3t')

      const list = await project.digline(['list', '--suite', 's'], { DIGLINE_STORE: url })
      expect(list.code, list.stdout + list.stderr).toBe(2)
      expect(list.stderr).toContain('TeamStoreUnreachableError')
      expect(list.stderr).toContain('127.0.0.1:1')
      expect(list.stderr).not.toContain('s3cr3t')
      expect(list.stderr).toMatch(/\n {2}next: \S/)
    },
  )
})
