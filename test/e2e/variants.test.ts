// Variants (SPEC §15, ADRs 0300–0302) end to end, in real `vitest run` and `digline` processes: three
// variants of a deterministic target whose differences are known (one pair identical), each filed as
// a run of its own with the variant's name in its document; the variant table with the right verdicts;
// the shared cap on target calls in flight; a killed variant launch resumed into the bytes an
// uninterrupted one writes; and the baseline per (suite, variant) on both backends. The listings
// run through the CLI's main() in-process and the baselines are promoted through the store (list and
// promote have their own end-to-end tests); the launches, pending, resume and compare are processes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { openStore } from '../../src/store/open-store.js'
import { promoteFirst } from '../helpers/make-run.js'
import { callLines, killAfterCalls } from '../helpers/kill.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { copyProject, defaultConfig, makeProject, type Project } from '../helpers/project.js'
import { pickSuite } from '../helpers/variant-suite.js'

const AT = '2026-12-03T10:00:00.000001Z'
const AT_2 = '2026-12-03T11:00:00.000001Z'

const VARIANTS = ['weak', 'strong', 'twin']

/** `digline …` through the CLI's main() in the project's directory. */
async function inProcess(project: Project, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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

function doc(project: Project, variant: string): { bytes: string; json: Record<string, unknown> & { results: { verdict: string }[] } } {
  const files = project.runFiles('acme', `pick.${variant}`)
  expect(files).toHaveLength(1)
  const bytes = readFileSync(join(project.dir, '.digline', 'acme', 'runs', `pick.${variant}`, files[0]!), 'utf8')
  return { bytes, json: JSON.parse(bytes) }
}

describe('three variants in one launch', () => {
  let project: Project
  let out: string
  beforeAll(async () => {
    project = makeProject({ 'evals/pick.eval.ts': pickSuite() })
    // no DIGLINE_CREATED_AT: the launch itself gives its variants one created_at, and so one key
    const run = await project.vitest([])
    out = run.stdout + run.stderr
    expect(run.code, out).toBe(0)
  })

  test('each variant is a run of its own, filed as pick.<variant> under the launch key, with its name and target in its document', () => {
    const keys = new Set<string>()
    for (const v of VARIANTS) {
      const { json } = doc(project, v)
      expect(json.suite).toBe(`pick.${v}`)
      expect(json.variant).toEqual({ suite: 'pick', name: v, position: VARIANTS.indexOf(v) })
      expect(json.target_config).toEqual({ model: v })
      expect(json.results).toHaveLength(60)
      keys.add(project.runFiles('acme', `pick.${v}`)[0]!)
    }
    expect(keys.size).toBe(1)
    expect(doc(project, 'weak').json.aggregates).toMatchObject({ passed: 30, pass_rate: 0.5 })
    expect(doc(project, 'strong').json.aggregates).toMatchObject({ passed: 54, pass_rate: 0.9 })
    // every variant was asked every case, once
    for (const v of VARIANTS) expect(callLines(project).filter((l) => l.startsWith(`${v}:`))).toHaveLength(60)
  })

  test('the variant table: per variant its pass rate with its interval; per pair the verdict the known differences call for', () => {
    expect(out).toContain('digline variants of pick: 3 variants asked the same cases')
    expect(out).toMatch(/ {2}weak {3,}50\.0% \[/)
    expect(out).toMatch(/ {2}strong +90\.0% \[/)
    expect(out).toContain('98.33% intervals (95% shared by 3 pairs, Bonferroni)')
    expect(out).toContain('weak − strong: −40.0 points')
    expect(out).toContain('(0 passed only by weak, 24 only by strong): strong is better')
    expect(out).toContain('weak − twin: 0.0 points [0.0, 0.0] over 60 shared cases (0 passed only by weak, 0 only by twin): no difference shown')
    expect(out).toContain('strong − twin: +40.0 points')
    expect(out).toContain('(24 passed only by strong, 0 only by twin): strong is better')
  })

  test('the variants share the suite’s cap on target calls in flight (concurrency 2)', () => {
    const most = Math.max(...callLines(project).map((l) => Number(l.split(':')[2])))
    expect(most).toBeLessThanOrEqual(2)
  })

  test('digline list names each variant as a suite, and its runs say which variant they are', async () => {
    const list = await inProcess(project, ['list'])
    expect(list.code, list.stderr).toBe(0)
    for (const v of VARIANTS) expect(list.stdout).toContain(`pick.${v}  1 run(s)`)
    const runs = await inProcess(project, ['list', '--suite', 'pick.strong'])
    expect(runs.stdout).toContain('variant strong of pick')
  })
})

test('a killed variant launch: each variant’s journal resumes, and the documents are byte-identical to an uninterrupted launch', async () => {
  const suite = pickSuite({ concurrency: 1, delayMs: 6 })
  const whole = makeProject({ 'evals/pick.eval.ts': suite })
  const killed = copyProject(whole)
  const run = await whole.vitest([], { DIGLINE_CREATED_AT: AT })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  await killAfterCalls(killed, 45, { DIGLINE_CREATED_AT: AT })
  const pending = await killed.digline(['pending'])
  // every variant opened its journal before the first call, so every one of them is pending
  for (const v of VARIANTS) expect(pending.stdout).toContain(`pick.${v}`)
  const resumed = await killed.digline(['run', '--resume'])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(resumed.stdout + resumed.stderr).toContain('digline variants of pick: 3 variants')
  for (const v of VARIANTS) expect(doc(killed, v).bytes).toBe(doc(whole, v).bytes)
})

describe('the baseline is per (suite, variant), on both backends', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase('variants')
  })
  afterAll(async () => {
    await db?.drop()
  })

  test.each([['file store'], ['team store']])('%s: a regression of one variant against its own baseline fails the launch; the others hold', async (backend) => {
    const config = backend === 'team store' ? defaultConfig('acme', `, store: ${JSON.stringify(db.url)}`) : defaultConfig()
    const project = makeProject({ 'vitest.config.ts': config, 'evals/pick.eval.ts': pickSuite({ extra: 'tolerances: { passRate: 0 },' }) })
    const first = await project.vitest([], { DIGLINE_CREATED_AT: AT })
    expect(first.code, first.stdout + first.stderr).toBe(0)
    // the baselines through the store: what `digline promote` files for each variant's run
    const store = openStore({ store: backend === 'team store' ? db.url : join(project.dir, '.digline') })
    try {
      const key = (await store.latestKey('acme', 'pick.weak'))!
      for (const v of ['weak', 'strong']) await promoteFirst(store, await store.readRun('acme', `pick.${v}`, key), '2026-12-03T10:30:00.000001Z')
    } finally {
      await store.close()
    }
    const second = await project.vitest([], { DIGLINE_CREATED_AT: AT_2, WEAK_WORSE: '1' })
    const out = second.stdout + second.stderr
    expect(second.code, out).toBe(1)
    expect(out).toMatch(/suite pick\.weak regressed against its baseline/)
    expect(out).not.toMatch(/suite pick\.(strong|twin) regressed/)
    const compared = await project.digline(['compare', '--suite', 'pick.strong', '--run', 'latest'])
    expect(compared.code, compared.stdout + compared.stderr).toBe(0)
    const weak = await project.digline(['compare', '--suite', 'pick.weak', '--run', 'latest'])
    expect(weak.code, weak.stdout + weak.stderr).toBe(1)
  })
})
