// Sharded runs as a CI matrix runs them: N processes as N machines (separate working directories and
// HOMEs, started at once) against one shared store, and N separate file stores plus `digline merge`.
// The filed document must be sha256-identical to an unsharded run with the same created_at, and the
// target (a counted deterministic function) must see every case once, plus at most the cases in
// flight when a shard is killed.
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { countingSuite, installRoot, makeProject, type ProcessResult, type Project } from '../helpers/project.js'
import { callLines } from '../helpers/kill.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { splitCases } from '../../src/host/launch/shard.js'
import { pendingRowsOf, shownJson } from './store-reads.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'
/** Machines in the matrix: three in CI (a first, a middle and a last shard), four in the long mode (ADR 0200). */
const N = process.env.DIGLINE_RELIABILITY_LONG === '1' ? 4 : 3
/** Cases per suite; DIGLINE_SHARD_TEST_CASES makes the CI run larger. */
const CASES = Number(process.env.DIGLINE_SHARD_TEST_CASES ?? 40)
const CONCURRENCY = 4
const suite = (opts: { delayMs?: number; thresholds?: string } = {}) =>
  countingSuite({ name: 'big', cases: CASES, concurrency: CONCURRENCY, answer: "i % 9 === 0 ? 'wrong' : 'ok-' + i", delayMs: opts.delayMs ?? 2, ...opts })

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
function machine(file = suite()): Project {
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

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The unsharded run with the same created_at, in a store of its own: made once per suite file, then only read. */
const references = new Map<string, ReturnType<typeof unshardedRun>>()
function reference(file = suite()): ReturnType<typeof unshardedRun> {
  if (!references.has(file)) references.set(file, unshardedRun(file))
  return references.get(file)!
}
async function unshardedRun(file: string) {
  const locator = mkdtempSync(join(installRoot(), 'reference-store-'))
  const project = machine(file)
  const env = envOf(project, { DIGLINE_STORE: locator })
  const result = await project.vitest([], env)
  expect(result.code, result.stdout + result.stderr).not.toBe(64)
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

describe.each(SHARED_STORES)(`${N} shards against one $name`, (locator) => {
  test(`started at once as ${N} machines, they file one run sha256-identical to an unsharded run; the target sees every case once`, async () => {
    const ref = await reference()
    const shared = await locator.make()
    const machines = Array.from({ length: N }, () => machine())
    // Odd shards take --shard, even ones DIGLINE_SHARD, as CI configs do both.
    const results = await Promise.all(
      machines.map((m, i) =>
        i % 2 === 0
          ? m.digline(['run', '--shard', `${i + 1}/${N}`], envOf(m, { DIGLINE_STORE: shared }))
          : m.vitest([], envOf(m, { DIGLINE_STORE: shared, DIGLINE_SHARD: `${i + 1}/${N}` })),
      ),
    )
    for (const r of results) expect(r.code, output(r)).toBe(0)
    const announced = results.map((r) => new RegExp(`shard (\\d)/${N} takes (\\d+) of (\\d+) cases`).exec(output(r)))
    expect(announced.map((m) => m?.[1])).toEqual(Array.from({ length: N }, (_, i) => String(i + 1)))
    const shares = announced.map((m) => Number(m![2]))
    expect(shares.reduce((a, b) => a + b, 0)).toBe(CASES)
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1)
    // through the real CLI once per store: its bytes are the ones the other tests read in-process
    const after = await filedByCli(machines[0]!, envOf(machines[0]!, { DIGLINE_STORE: shared }))
    expect(after.key).toBe(ref.key)
    expect(after.digest).toBe(ref.digest)
    expect(after.text).toBe((await filed(shared)).text)
    // The one that filed it printed the run's verdict; nothing is left pending.
    expect(results.some((r) => output(r).includes('this is the whole run') || output(r).includes(`run document:`))).toBe(true)
    const pending = await machines[1]!.digline(['pending'], envOf(machines[1]!, { DIGLINE_STORE: shared }))
    expect(pending.stdout).toContain('Nothing is pending')
    expectEveryCaseOnce(machines)
  })

  test("one after another: all but the last exit 0 and name the missing shards, the last gives the whole run's verdict (exit 1)", async () => {
    const file = suite({ thresholds: '{ passRate: 0.95 }' })
    const ref = await reference(file)
    expect(ref.result.code).toBe(1)
    const shared = await locator.make()
    const machines = Array.from({ length: N }, () => machine(file))
    for (let i = 0; i < N - 1; i++) {
      const r = await machines[i]!.digline(['run', '--shard', `${i + 1}/${N}`], envOf(machines[i]!, { DIGLINE_STORE: shared }))
      expect(r.code, output(r)).toBe(0)
      expect(output(r)).toContain(`run ${ref.key} is still open`)
      expect(output(r)).toContain(`${N}/${N} (missing`)
      expect(output(r)).toContain("exit 0: this shard's cases ran; 1 run(s) still open")
      expect(output(r)).not.toContain('every suite holds')
    }
    const pending = await machines[0]!.digline(['pending'], envOf(machines[0]!, { DIGLINE_STORE: shared }))
    expect(pending.stdout).toContain(`shard 1/${N}  done`)
    expect(pending.stdout).toContain(`shard ${N}/${N}  missing  0 of`)
    expect(pending.stdout).toContain(`digline run --resume ${ref.key} --shard ${N}/${N}`)
    const lastMachine = machines[N - 1]!
    const last = await lastMachine.digline(['run', '--shard', `${N}/${N}`], envOf(lastMachine, { DIGLINE_STORE: shared }))
    expect(last.code, output(last)).toBe(1)
    expect(output(last)).toContain('missed')
    expect((await filed(shared)).digest).toBe(ref.digest)
    expectEveryCaseOnce(machines)
  })

  test('a shard SIGKILLed at a random point is finished by --resume KEY --shard in another directory: the same bytes', async () => {
    const file = suite({ delayMs: 40 })
    const ref = await reference(file)
    const shared = await locator.make()
    const machines = Array.from({ length: N }, () => machine(file))
    const victim = machines[2]!
    const share = CASES / N
    const killAt = 1 + Math.floor(Math.random() * Math.max(1, share - 2))
    const child = victim.spawnDigline(['run', '--shard', `3/${N}`], envOf(victim, { DIGLINE_STORE: shared }))
    const others = Promise.all(othersThan(2).map((i) => machines[i]!.digline(['run', '--shard', `${i + 1}/${N}`], envOf(machines[i]!, { DIGLINE_STORE: shared }))))
    const deadline = Date.now() + 120_000
    while (callLines(victim).length < killAt && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
    process.kill(-child.pid!, 'SIGKILL')
    await child.done
    for (const r of await others) expect(r.code, output(r)).toBe(0)
    const [pending] = await pendingRowsOf(shared)
    expect(pending?.shards?.find((s) => s.shard === `3/${N}`)?.state).toBe('missing')
    const elsewhere = machine(file)
    const resumed = await elsewhere.digline(['run', '--resume', ref.key, '--shard', `3/${N}`], envOf(elsewhere, { DIGLINE_STORE: shared, DIGLINE_CREATED_AT: '' }))
    expect(resumed.code, output(resumed)).toBe(0)
    expect((await filed(shared)).digest).toBe(ref.digest)
    expectEveryCaseOnce([...machines, elsewhere], CONCURRENCY)
  })
})

describe(`${N} shards in ${N} file stores, filed by digline merge`, () => {
  /** N machines, each with its own .digline, as N CI jobs uploading their store as an artifact. */
  async function shardsInOwnStores(file = suite()) {
    const machines = Array.from({ length: N }, () => machine(file))
    const results = await Promise.all(machines.map((m, i) => m.digline(['run', '--shard', `${i + 1}/${N}`], envOf(m))))
    for (const r of results) expect(r.code, output(r)).toBe(0)
    return machines
  }
  const storeOf = (m: Project) => join(m.dir, '.digline')
  // The merge only reads the shards' stores: one set of them serves every test that merges it.
  let clean: Promise<Project[]> | undefined
  const cleanShards = () => (clean ??= shardsInOwnStores())

  test('the merged run is sha256-identical to an unsharded run, and refusals file nothing', async () => {
    const ref = await reference()
    const machines = await cleanShards()
    for (const m of machines) expect(m.runFiles('acme', 'big')).toEqual([])
    const gate = machine()
    const refusals: [string[], string][] = [
      [machines.slice(0, N - 1).map(storeOf), 'ShardMissingError'],
      [[...machines.map(storeOf), storeOf(machines[1]!)], 'ShardTwiceError'],
    ]
    for (const [dirs, name] of refusals) {
      const r = await gate.digline(['merge', ...dirs], envOf(gate))
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
    expectEveryCaseOnce(machines)
  })

  test('shards whose headers disagree are refused by name at the merge', async () => {
    // shard 3 again, on a machine whose environment is staging, in place of the clean shard 3
    const staging = machine()
    const third = await staging.digline(['run', '--shard', `3/${N}`], envOf(staging, { DIGLINE_ENVIRONMENT: 'staging' }))
    expect(third.code, output(third)).toBe(0)
    const machines = (await cleanShards()).map((m, i) => (i === 2 ? staging : m))
    const gate = machine()
    const r = await gate.digline(['merge', ...machines.map(storeOf)], envOf(gate))
    expect(r.code, output(r)).toBe(64)
    expect(output(r)).toContain('ShardsDisagreeError')
    expect(output(r)).toContain('environment differs')
    expect(gate.runFiles('acme', 'big')).toEqual([])
  })

  test('a killed shard is refused at the merge until it is resumed where its journal is; then the same bytes', async () => {
    const file = suite({ delayMs: 40 })
    const ref = await reference(file)
    const machines = Array.from({ length: N }, () => machine(file))
    const victim = machines[1]!
    const child = victim.spawnDigline(['run', '--shard', `2/${N}`], envOf(victim))
    const others = Promise.all(othersThan(1).map((i) => machines[i]!.digline(['run', '--shard', `${i + 1}/${N}`], envOf(machines[i]!))))
    const killAt = 1 + Math.floor(Math.random() * Math.max(1, CASES / N - 2))
    const deadline = Date.now() + 120_000
    while (callLines(victim).length < killAt && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
    process.kill(-child.pid!, 'SIGKILL')
    await child.done
    for (const r of await others) expect(r.code, output(r)).toBe(0)
    const gate = machine(file)
    const early = await gate.digline(['merge', ...machines.map(storeOf)], envOf(gate))
    expect(early.code, output(early)).toBe(64)
    expect(output(early)).toContain('ShardMissingError')
    expect(output(early)).toContain(`digline run --resume ${ref.key} --shard 2/${N}`)
    const resumed = await victim.digline(['run', '--resume', ref.key, '--shard', `2/${N}`], envOf(victim, { DIGLINE_CREATED_AT: '' }))
    expect(resumed.code, output(resumed)).toBe(0)
    expect(output(resumed)).toContain('still open')
    const merged = await gate.digline(['merge', ...machines.map(storeOf)], envOf(gate))
    expect(merged.code, output(merged)).toBe(ref.result.code)
    expect((await filed(storeOf(gate))).digest).toBe(ref.digest)
    expectEveryCaseOnce(machines, CONCURRENCY)
  })
})

test('a shard is refused (64, nothing called) when it is not i/N or has no DIGLINE_CREATED_AT', async () => {
  const project = machine()
  // one malformed i/N per door; the table of them is parseShard's (test/unit/host/shard-split.test.ts)
  const flag = await project.digline(['run', '--shard', `${N + 1}/${N}`], envOf(project))
  expect(flag.code, output(flag)).toBe(64)
  expect(output(flag)).toContain('InvalidShardError')
  const viaEnv = await project.vitest([], envOf(project, { DIGLINE_SHARD: '3/2' }))
  expect(viaEnv.code, output(viaEnv)).toBe(64)
  expect(output(viaEnv)).toContain('InvalidShardError')
  const noCreatedAt = await project.digline(['run', '--shard', '1/2'], { HOME: join(project.dir, 'home') })
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
  const errored = await first.digline(['run', '--shard', `${broken}/2`], envOf(first, { DIGLINE_STORE: shared }))
  expect(errored.code, output(errored)).toBe(2)
  expect(output(errored)).toContain('still open')
  const other = await last.digline(['run', '--shard', `${3 - broken}/2`], envOf(last, { DIGLINE_STORE: shared }))
  expect(other.code, output(other)).toBe(2)
  expect(output(other)).toContain('not judged')
  expect((JSON.parse(await shownJson(shared, 'big')) as { aggregates: { errored: number; cases: number } }).aggregates).toMatchObject({ errored: 1, cases })
})
