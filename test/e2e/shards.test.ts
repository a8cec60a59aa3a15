// Sharded runs as a CI matrix runs them: N processes as N machines (separate working directories and
// HOMEs, started at once) against one shared store, and N separate file stores plus `digline merge`.
// The filed document must be sha256-identical to an unsharded run with the same created_at, and the
// target (a counted deterministic function) must see every case once, plus at most the cases in
// flight when a shard is killed.
// What it starts, and why (ADR 0490): one suite text, so one reference run; the door a shard comes
// through (`digline run --shard` or DIGLINE_SHARD) is the first test's and the refusals' subject, so
// the other shards start as `vitest run` with DIGLINE_SHARD; a kill and its resume share their
// launches with the one-after-another shards and with the merged set; refusals come from main().
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { countingSuite, installRoot, makeProject, type ProcessResult, type Project } from '../helpers/project.js'
import { callLines, killGroup } from '../helpers/kill.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { main } from '../../src/cli/main.js'
import { splitCases } from '../../src/host/launch/shard.js'
import { pendingRowsOf, shownJson } from './store-reads.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'
/** Machines in the matrix: three in CI (a first, a middle and a last shard), four in the long mode (ADR 0200). */
const N = process.env.DIGLINE_RELIABILITY_LONG === '1' ? 4 : 3
/** Cases per suite (shares of 9, 8 and 8: one shard takes the remainder); DIGLINE_SHARD_TEST_CASES makes the CI run larger. */
const CASES = Number(process.env.DIGLINE_SHARD_TEST_CASES ?? 25)
const CONCURRENCY = 4
/**
 * The one suite every machine runs: one case in nine is wrong, so the whole run misses its pass rate
 * (exit 1) and only the shard that files it says so. Each call waits 2 ms, or SHARD_TEST_DELAY_MS on
 * a machine that is to be killed (so the kill lands within its share): the text, and so the
 * reference run it is compared with, is one.
 */
const SUITE = countingSuite({
  name: 'big',
  cases: CASES,
  concurrency: CONCURRENCY,
  answer: "i % 9 === 0 ? 'wrong' : 'ok-' + i",
  thresholds: '{ passRate: 0.95 }',
  delayMs: 'Number(process.env.SHARD_TEST_DELAY_MS ?? 2)',
})
// A share of 8 cases at concurrency 4 is 2 rounds of calls: at 40 ms each, a test process starved for
// 80 ms on a loaded machine missed the kill point and the shard finished whole. 300 ms leaves it time.
const SLOW: NodeJS.ProcessEnv = { SHARD_TEST_DELAY_MS: '300' }

/**
 * A store every shard reaches. The file store: one absolute directory. After the team store lands,
 * its variant is one more line here (a fresh database URL per test).
 */
export interface StoreLocator {
  name: string
  make(): Promise<string>
}
const databases: TestDatabase[] = []
const SHARED_STORES: StoreLocator[] = [
  { name: 'file store', make: () => Promise.resolve(mkdtempSync(join(installRoot(), 'shared-store-'))) },
  {
    name: 'team store',
    async make() {
      const database = await createTestDatabase('shards_e2e')
      databases.push(database)
      return database.url
    },
  },
]
afterAll(async () => {
  for (const database of databases) await database.drop()
})

/** A machine of the matrix: its own directory and HOME, the run's created_at. */
function machine(file = SUITE): Project {
  const project = makeProject({ 'evals/big.eval.ts': file })
  mkdirSync(join(project.dir, 'home'))
  return project
}

function envOf(project: Project, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { DIGLINE_CREATED_AT: CREATED_AT, HOME: join(project.dir, 'home'), ...extra }
}

/** The filed document as `digline show --json` prints it, hashed; and the key it is filed under. */
async function filedByCli(project: Project, env: NodeJS.ProcessEnv): Promise<{ digest: string; key: string; text: string }> {
  const shown = await project.digline(['show', '--suite', 'big', '--run', 'latest', '--json'], env)
  expect(shown.code, shown.stdout + shown.stderr).toBe(0)
  return { digest: sha256(shown.stdout), key: (JSON.parse(shown.stdout) as { key: string }).key, text: shown.stdout }
}

/** The same bytes read in this process (ADR 0460); the first test checks both ways agree. */
async function filed(locator: string): Promise<{ digest: string; key: string; text: string }> {
  const text = await shownJson(locator, 'big')
  return { digest: sha256(text), key: (JSON.parse(text) as { key: string }).key, text }
}

/** Shard i of n through DIGLINE_SHARD: `vitest run`, the launch a shard is, without the CLI's process in front of it. */
function shard(project: Project, i: number, extra: NodeJS.ProcessEnv = {}, n = N): Promise<ProcessResult> {
  return project.vitest([], envOf(project, { DIGLINE_SHARD: `${i}/${n}`, ...extra }))
}

/** A command that starts no process of its own, from the CLI's main() in this process (ADR 0470). */
async function inProcess(project: Project, argv: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    cwd: project.dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...env },
    stdout: (text) => void (stdout += `${text}\n`),
    stderr: (text) => void (stderr += `${text}\n`),
  })
  return { code, signal: null, stdout, stderr }
}

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The unsharded run with the same created_at, in a store of its own: made once for the file, then only read. */
let referenceRun: ReturnType<typeof unshardedRun> | undefined
const reference = () => (referenceRun ??= unshardedRun())
async function unshardedRun() {
  const locator = mkdtempSync(join(installRoot(), 'reference-store-'))
  const project = machine()
  const result = await project.vitest([], envOf(project, { DIGLINE_STORE: locator }))
  expect(result.code, result.stdout + result.stderr).toBe(1)
  expect(result.stdout + result.stderr).toContain('missed')
  return { ...(await filed(locator)), result, locator }
}

/** Every call the target received across the machines, as case ids. */
function callsOf(projects: readonly Project[]): string[] {
  return projects.flatMap((p) => callLines(p)).map((line) => line.split(':')[0]!)
}

function countBy(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
  return counts
}

const allIds = Array.from({ length: CASES }, (_, i) => 'c' + String(i).padStart(3, '0'))

function expectEveryCaseOnce(projects: readonly Project[], inFlightAllowance = 0): void {
  const counts = countBy(callsOf(projects))
  expect([...counts.keys()].sort()).toEqual(allIds)
  const extra = [...counts.values()].reduce((sum, n) => sum + n - 1, 0)
  expect(extra).toBeLessThanOrEqual(inFlightAllowance)
}

const output = (r: ProcessResult) => r.stdout + r.stderr
/** The machine indexes of the matrix but one. */
const othersThan = (victim: number) => Array.from({ length: N }, (_, i) => i).filter((i) => i !== victim)

/** Waits until `victim` has made `killAt` calls (or ended), then SIGKILLs its process group. */
async function killAfter(victim: Project, child: ReturnType<Project['spawnVitest']>, killAt: number): Promise<void> {
  const deadline = Date.now() + 120_000
  while (callLines(victim).length < killAt && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
  // a shard that ended before its kill point would make every later step prove nothing
  expect(child.exitCode, `the shard ended before its kill point (${killAt} calls)`).toBeNull()
  await killGroup(child)
}
/** A random point within a shard's share (of n shards), before its last calls. */
const randomKillPoint = (n = N) => 1 + Math.floor(Math.random() * Math.max(1, Math.floor(CASES / n) - 2))
/** Said by the shard that files the run. */
const VERDICT = "this is the whole run's verdict"

describe.each(SHARED_STORES)(`${N} shards against one $name`, (locator) => {
  test(`started at once as ${N} machines, they file one run sha256-identical to an unsharded run; the target sees every case once`, async () => {
    const ref = await reference()
    const shared = await locator.make()
    const machines = Array.from({ length: N }, () => machine())
    // Even shards (2, 4) take --shard, odd ones DIGLINE_SHARD, as CI configs do both.
    const results = await Promise.all(
      machines.map((m, i) => (i % 2 === 1 ? m.digline(['run', '--shard', `${i + 1}/${N}`], envOf(m, { DIGLINE_STORE: shared })) : shard(m, i + 1, { DIGLINE_STORE: shared }))),
    )
    const announced = results.map((r) => new RegExp(`shard (\\d)/${N} takes (\\d+) of (\\d+) cases`).exec(output(r)))
    expect(announced.map((m) => m?.[1])).toEqual(Array.from({ length: N }, (_, i) => String(i + 1)))
    const shares = announced.map((m) => Number(m![2]))
    expect(shares.reduce((a, b) => a + b, 0)).toBe(CASES)
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1)
    // The one that filed it gives the whole run's verdict (it misses its pass rate: 1); the others exit 0, the run still open.
    for (const r of results) {
      if (output(r).includes(VERDICT)) expect(r.code, output(r)).toBe(ref.result.code)
      else expect([r.code, output(r)]).toEqual([0, expect.stringContaining('still open')])
    }
    expect(results.some((r) => output(r).includes(VERDICT))).toBe(true)
    // through the real CLI once per store: its bytes are the ones the other tests read in-process
    const after = await filedByCli(machines[0]!, envOf(machines[0]!, { DIGLINE_STORE: shared }))
    expect(after.key).toBe(ref.key)
    expect(after.digest).toBe(ref.digest)
    expect(after.text).toBe((await filed(shared)).text)
    expect(await pendingRowsOf(shared)).toEqual([])
    expectEveryCaseOnce(machines)
  })

  // One shard fewer than the matrix (2 in CI: a first and a last), each started after the one before.
  const n = N - 1
  test(`${n} one after another: all but the last exit 0 and name the missing shards; the last, SIGKILLed at a random point, is finished by --resume KEY --shard in another directory and gives the whole run's verdict (exit 1): the same bytes`, async () => {
    const ref = await reference()
    const shared = await locator.make()
    const machines = Array.from({ length: n }, () => machine())
    for (let i = 0; i < n - 1; i++) {
      const r = await shard(machines[i]!, i + 1, { DIGLINE_STORE: shared }, n)
      expect(r.code, output(r)).toBe(0)
      expect(output(r)).toContain(`run ${ref.key} is still open`)
      expect(output(r)).toContain(`${n}/${n} (missing`)
      expect(output(r)).toContain("exit 0: this shard's cases ran; 1 run(s) still open")
      expect(output(r)).not.toContain('every suite holds')
      expect(output(r)).not.toContain(VERDICT)
    }
    // the lines `digline pending` prints, from main(); the bin's `pending` is run by the variants and team-store tests
    const pending = await inProcess(machines[0]!, ['pending'], envOf(machines[0]!, { DIGLINE_STORE: shared }))
    expect(pending.stdout).toContain(`shard 1/${n}  done`)
    expect(pending.stdout).toContain(`shard ${n}/${n}  missing  0 of`)
    expect(pending.stdout).toContain(`digline run --resume ${ref.key} --shard ${n}/${n}`)
    const victim = machines[n - 1]!
    const child = victim.spawnVitest([], envOf(victim, { DIGLINE_STORE: shared, DIGLINE_SHARD: `${n}/${n}`, ...SLOW }))
    await killAfter(victim, child, randomKillPoint(n))
    const [open] = await pendingRowsOf(shared)
    expect(open?.shards?.find((s) => s.shard === `${n}/${n}`)?.state).toBe('missing')
    const elsewhere = machine()
    const last = await elsewhere.digline(['run', '--resume', ref.key, '--shard', `${n}/${n}`], envOf(elsewhere, { DIGLINE_STORE: shared, DIGLINE_CREATED_AT: '' }))
    expect(last.code, output(last)).toBe(1)
    expect(output(last)).toContain('missed')
    expect(output(last)).toContain(VERDICT)
    expect((await filed(shared)).digest).toBe(ref.digest)
    expectEveryCaseOnce([...machines, elsewhere], CONCURRENCY)
  })
})

describe(`${N} shards in ${N} file stores, filed by digline merge`, () => {
  const storeOf = (m: Project) => join(m.dir, '.digline')
  /**
   * N machines, each with its own .digline, as N CI jobs uploading their store as an artifact; shard 2
   * is SIGKILLed at a random point, refused at a merge, and resumed where its journal is. The merge
   * only reads the shards' stores: this one set serves every test that merges it.
   */
  async function shardsInOwnStores() {
    const ref = await reference()
    const machines = Array.from({ length: N }, () => machine())
    const victim = machines[1]!
    const child = victim.spawnVitest([], envOf(victim, { DIGLINE_SHARD: `2/${N}`, ...SLOW }))
    const others = Promise.all(othersThan(1).map((i) => shard(machines[i]!, i + 1)))
    await killAfter(victim, child, randomKillPoint())
    for (const r of await others) expect(r.code, output(r)).toBe(0)
    const gate = machine()
    const early = await inProcess(gate, ['merge', ...machines.map(storeOf)], envOf(gate))
    expect(gate.runFiles('acme', 'big')).toEqual([])
    const resumed = await victim.digline(['run', '--resume', ref.key, '--shard', `2/${N}`], envOf(victim, { DIGLINE_CREATED_AT: '' }))
    return { machines, gate, early, resumed }
  }
  let made: ReturnType<typeof shardsInOwnStores> | undefined
  const shards = () => (made ??= shardsInOwnStores())

  test('a killed shard is refused at the merge until it is resumed where its journal is; then the merged run is sha256-identical to an unsharded run, and refusals file nothing', async () => {
    const ref = await reference()
    const { machines, gate, early, resumed } = await shards()
    expect(early.code, output(early)).toBe(64)
    expect(output(early)).toContain('ShardMissingError')
    expect(output(early)).toContain(`digline run --resume ${ref.key} --shard 2/${N}`)
    expect(resumed.code, output(resumed)).toBe(0)
    expect(output(resumed)).toContain('still open')
    for (const m of machines) expect(m.runFiles('acme', 'big')).toEqual([])
    const refusals: [string[], string][] = [
      [machines.slice(0, N - 1).map(storeOf), 'ShardMissingError'],
      [[...machines.map(storeOf), storeOf(machines[1]!)], 'ShardTwiceError'],
    ]
    for (const [dirs, name] of refusals) {
      const r = await inProcess(gate, ['merge', ...dirs], envOf(gate))
      expect(r.code, output(r)).toBe(64)
      expect(output(r)).toContain(name)
      expect(gate.runFiles('acme', 'big')).toEqual([])
    }
    const merged = await gate.digline(['merge', ...machines.map(storeOf)], envOf(gate))
    expect(merged.code, output(merged)).toBe(ref.result.code)
    expect(output(merged)).toContain('digline big')
    const after = await filed(storeOf(gate))
    expect(after.digest).toBe(ref.digest)
    // The file itself, byte for byte.
    const [name] = gate.runFiles('acme', 'big')
    expect(readFileSync(join(gate.dir, '.digline', 'acme', 'runs', 'big', name!))).toEqual(readFileSync(join(ref.locator, 'acme', 'runs', 'big', name!)))
    expectEveryCaseOnce(machines, CONCURRENCY)
  })

  test('shards whose headers disagree are refused by name at the merge', async () => {
    // shard 3 again, on a machine whose environment is staging, in place of the clean shard 3
    const staging = machine()
    const third = await shard(staging, 3, { DIGLINE_ENVIRONMENT: 'staging' })
    expect(third.code, output(third)).toBe(0)
    const machines = (await shards()).machines.map((m, i) => (i === 2 ? staging : m))
    const gate = machine()
    const r = await inProcess(gate, ['merge', ...machines.map(storeOf)], envOf(gate))
    expect(r.code, output(r)).toBe(64)
    expect(output(r)).toContain('ShardsDisagreeError')
    expect(output(r)).toContain('environment differs')
    expect(gate.runFiles('acme', 'big')).toEqual([])
  })
})

test('a shard is refused (64, nothing called) when it is not i/N or has no DIGLINE_CREATED_AT', async () => {
  const project = machine()
  // one malformed i/N per door; the table of them is parseShard's (test/unit/host/shard-split.test.ts)
  const flag = await inProcess(project, ['run', '--shard', `${N + 1}/${N}`], envOf(project))
  expect(flag.code, output(flag)).toBe(64)
  expect(output(flag)).toContain('InvalidShardError')
  const viaEnv = await project.vitest([], envOf(project, { DIGLINE_SHARD: '3/2' }))
  expect(viaEnv.code, output(viaEnv)).toBe(64)
  expect(output(viaEnv)).toContain('InvalidShardError')
  const noCreatedAt = await inProcess(project, ['run', '--shard', '1/2'], { HOME: join(project.dir, 'home') })
  expect(noCreatedAt.code, output(noCreatedAt)).toBe(64)
  expect(output(noCreatedAt)).toContain('ShardWithoutCreatedAtError')
  const inWorker = await project.vitest([], { HOME: join(project.dir, 'home'), DIGLINE_SHARD: '1/2' })
  expect(inWorker.code, output(inWorker)).toBe(64)
  expect(output(inWorker)).toContain('ShardWithoutCreatedAtError')
  expect(callLines(project)).toEqual([])
})

test('a shard whose own case errored exits 2 and leaves the run open; the run filed last is not judged (2)', async () => {
  const cases = 8
  const owner = splitCases(
    Array.from({ length: cases }, (_, i) => 'c' + String(i).padStart(3, '0')),
    2,
  )
  const broken = owner.get('c003')!
  const file = countingSuite({ name: 'big', cases, answer: "i === 3 ? (() => { throw new Error('the target broke') })() : 'ok-' + i" })
  const shared = mkdtempSync(join(installRoot(), 'shared-store-'))
  const [first, last] = [machine(file), machine(file)]
  const errored = await first.vitest([], envOf(first, { DIGLINE_STORE: shared, DIGLINE_SHARD: `${broken}/2` }))
  expect(errored.code, output(errored)).toBe(2)
  expect(output(errored)).toContain('still open')
  const other = await last.vitest([], envOf(last, { DIGLINE_STORE: shared, DIGLINE_SHARD: `${3 - broken}/2` }))
  expect(other.code, output(other)).toBe(2)
  expect(output(other)).toContain('not judged')
  expect((JSON.parse(await shownJson(shared, 'big')) as { aggregates: { errored: number; cases: number } }).aggregates).toMatchObject({ errored: 1, cases })
})
