// Variants (SPEC §15, ADRs 0300–0302) end to end, in real `vitest run` and `digline` processes: three
// variants of a deterministic target whose differences are known (one pair identical), each filed as
// a run of its own with the variant's name in its document; the variant table with the right verdicts;
// the shared cap on target calls in flight; a killed variant launch resumed into the bytes the
// uninterrupted one wrote; and the baseline per (suite, variant) on both backends. One suite text
// serves every test, so the first launch is the kill's reference and the file store's first run (ADR
// 0540). The listings, pending and all but one compare run in-process, the baselines are promoted and
// the team store's first run filed through the store; the launches, the resume and one compare are processes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RunDocument } from '../../src/document/schema.js'
import { openStore } from '../../src/store/open-store.js'
import { promoteFirst } from '../helpers/make-run.js'
import { callLines, killWhen } from '../helpers/kill.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { copyProject, defaultConfig, makeProject, type Project } from '../helpers/project.js'
import { pickSuite } from '../helpers/variant-suite.js'
import { inProcess } from './cli-in-process.js'
import { pendingRowsOf } from './store-reads.js'

const VARIANTS = ['weak', 'strong', 'twin']

// With PICK_HOLD_AT=n in its environment, a call of a case n or later is logged and never answers:
// the two calls in flight hold and the launch stalls, to be killed there. Unset, the text is pickSuite's.
const HOLD = '      if (i >= Number(process.env.PICK_HOLD_AT ?? Infinity)) await new Promise(() => {})\n'
const PLAIN = pickSuite({ extra: 'tolerances: { passRate: 0 },' })
const SUITE = PLAIN.replace(/(\n\s*appendFileSync\('calls\.log'[^\n]*\n)/, `$1${HOLD}`)

function doc(project: Project, variant: string): { bytes: string; json: RunDocument } {
  const files = project.runFiles('acme', `pick.${variant}`)
  expect(files).toHaveLength(1)
  const bytes = readFileSync(join(project.dir, '.digline', 'acme', 'runs', `pick.${variant}`, files[0]!), 'utf8')
  return { bytes, json: JSON.parse(bytes) }
}

let project: Project
let out: string
beforeAll(async () => {
  expect(SUITE).not.toBe(PLAIN)
  project = makeProject({ 'evals/pick.eval.ts': SUITE })
  // no DIGLINE_CREATED_AT: the launch itself gives its variants one created_at, and so one key
  const run = await project.vitest([])
  out = run.stdout + run.stderr
  expect(run.code, out).toBe(0)
})

describe('three variants in one launch', () => {
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
  const killed = makeProject({ 'evals/pick.eval.ts': SUITE })
  // the first launch's created_at: the killed launch gets the key the uninterrupted one filed under
  const env = { DIGLINE_CREATED_AT: doc(project, 'weak').json.created_at, PICK_HOLD_AT: '30' }
  const suites = async () => (await pendingRowsOf(join(killed.dir, '.digline'))).map((r) => r.suite).sort()
  const held = () => callLines(killed).filter((l) => Number(l.split(':')[1]!.slice(1)) >= 30).length === 2
  // killed once the two held calls stall it and each variant's journal is on disk
  await killWhen(killed, 'two held calls', async () => held() && (await suites()).length === 3, env, undefined, 20)
  expect(callLines(killed).length).toBeLessThan(180)
  // every variant's journal is pending
  expect(await suites()).toEqual(VARIANTS.map((v) => `pick.${v}`).sort())
  const resumed = await killed.digline(['run', '--resume'])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(resumed.stdout + resumed.stderr).toContain('digline variants of pick: 3 variants')
  for (const v of VARIANTS) expect(doc(killed, v).bytes).toBe(doc(project, v).bytes)
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
    const team = backend === 'team store'
    // the file store: a copy of the first launch's project; the team store: its documents, filed there
    const copy = team ? makeProject({ 'vitest.config.ts': defaultConfig('acme', `, store: ${JSON.stringify(db.url)}`), 'evals/pick.eval.ts': SUITE }) : copyProject(project)
    const key = project.runFiles('acme', 'pick.weak')[0]!.replace(/\.json$/, '')
    // the baselines through the store: what `digline promote` files for each variant's run
    const store = openStore({ store: team ? db.url : join(copy.dir, '.digline') })
    try {
      if (team) for (const v of VARIANTS) await store.writeRun(doc(project, v).json)
      expect(await store.latestKey('acme', 'pick.weak')).toBe(key)
      for (const v of ['weak', 'strong']) await promoteFirst(store, await store.readRun('acme', `pick.${v}`, key), new Date().toISOString().replace('Z', '000Z'))
    } finally {
      await store.close()
    }
    // no DIGLINE_CREATED_AT: now, after the first launch
    const second = await copy.vitest([], { WEAK_WORSE: '1' })
    const out = second.stdout + second.stderr
    expect(second.code, out).toBe(1)
    expect(out).toMatch(/suite pick\.weak regressed against its baseline/)
    expect(out).not.toMatch(/suite pick\.(strong|twin) regressed/)
    const compared = await inProcess(copy, ['compare', '--suite', 'pick.strong', '--run', 'latest'])
    expect(compared.code, compared.stdout + compared.stderr).toBe(0)
    // one compare through the bin
    const weak = team ? await copy.digline(['compare', '--suite', 'pick.weak', '--run', 'latest']) : await inProcess(copy, ['compare', '--suite', 'pick.weak', '--run', 'latest'])
    expect(weak.code, weak.stdout + weak.stderr).toBe(1)
  })
})
