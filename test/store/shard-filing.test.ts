// Filing a sharded run through the Store contract alone, in-process against a real store: shards
// that finish at the same moment file the run exactly once (never twice with different bytes, and
// never both believing they are not last); the merge checks refuse a case journaled by two shards.
// STORES is parametrized so the team store is one more line.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { findShardPending, measureShard } from '../../src/host/launch/measure-shard.js'
import { shardsOf } from '../../src/host/launch/sharded-run.js'
import { fileMergedRun, planMerge } from '../../src/host/lifecycle/merge-shards.js'
import { measureRun } from '../../src/host/launch/measure-run.js'
import { prepareRun, type RunContext } from '../../src/host/launch/prepare-run.js'
import { journalHeaderFor } from '../../src/host/launch/resume.js'
import { casesOfShard } from '../../src/host/launch/shard.js'
import { exact } from '../../src/scorers/exact.js'
import type { Store } from '../../src/store/contract.js'
import { openStore } from '../../src/store/open-store.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { resolveSuite } from '../../src/suite/resolve-suite.js'

interface StoreUnderTest {
  name: string
  /** A fresh store, and the locator its shards reach it by. */
  make(): Promise<{ store: Store; locator: string }>
}
const STORES: StoreUnderTest[] = [
  {
    name: 'file store',
    make() {
      const locator = join(realpathSync(mkdtempSync(join(tmpdir(), 'digline-shards-'))), '.digline')
      return Promise.resolve({ store: openStore({ store: locator }), locator })
    },
  },
  {
    name: 'team store',
    async make() {
      const database = await createTestDatabase('shard_filing')
      databases.push(database)
      return { store: openStore({ store: database.url }), locator: database.url }
    },
  },
]
const databases: TestDatabase[] = []
afterAll(async () => {
  for (const database of databases) await database.drop()
})

const CASES = 24

function suiteOf(calls: string[]) {
  return resolveSuite({
    name: 'big',
    cases: Array.from({ length: CASES }, (_, i) => ({ id: `c${String(i).padStart(2, '0')}`, input: i, expected: i % 5 === 0 ? -1 : i })),
    target: {
      config: { model: 'det-v1' },
      async ask(input: unknown, ctx) {
        calls.push(ctx.caseId)
        await new Promise((r) => setTimeout(r, 1))
        return { output: input, model: 'det-v1-2026' }
      },
    },
    scorers: [exact()],
    concurrency: 3,
  })
}

function contextOf(locator: string, createdAt: string): RunContext {
  const projectRoot = mkdtempSync(join(tmpdir(), 'digline-shards-project-'))
  mkdirSync(projectRoot, { recursive: true })
  return { tenant: 'acme', environment: 'local', storeRoot: locator, projectRoot, env: { DIGLINE_CREATED_AT: createdAt } }
}

const createdAt = (round: number) => `2026-11-29T22:39:${String(10 + round).padStart(2, '0')}.123456Z`

describe.each(STORES)('$name', (backend) => {
  test('two shards finishing at once: the run is filed once, byte-identical to an unsharded run, and at least one of them saw it filed', async () => {
    for (let round = 0; round < 12; round++) {
      const { store, locator } = await backend.make()
      const calls: string[] = []
      const suite = suiteOf(calls)
      const ctx = contextOf(locator, createdAt(round))
      const shards = await Promise.all([1, 2].map(async (index) => prepareRun(suite, ctx, undefined, undefined, { index, count: 2 })))
      const settled = await Promise.all(shards.map((prepared) => measureShard(prepared, { store })))
      expect(
        settled.map((s) => s.kind),
        `round ${round}`,
      ).toContain('filed')
      const filed = await store.readRun('acme', 'big', shards[0]!.key)
      const reference = openStore({ store: (await backend.make()).locator })
      const whole = await measureRun(await prepareRun(suiteOf([]), ctx), { store: reference })
      expect(serializeRun(filed)).toBe(serializeRun(whole.document))
      for (const s of settled) if (s.kind === 'filed') expect(serializeRun(s.measured.document)).toBe(serializeRun(whole.document))
      expect([...calls].sort()).toEqual(suite.cases.map((c) => c.id))
      expect(await store.pending('acme', 'big')).toEqual([])
    }
  })

  test('a shard that is not last reports the run open and names the shards it waits for; the last one files it', async () => {
    const { store, locator } = await backend.make()
    const suite = suiteOf([])
    const ctx = contextOf(locator, createdAt(30))
    const first = await measureShard(await prepareRun(suite, ctx, undefined, undefined, { index: 2, count: 3 }), { store })
    expect(first.kind).toBe('open')
    if (first.kind === 'open') expect(first.waiting.map((w) => `${w.shard} ${w.state}`)).toEqual(['1/3 missing', '3/3 missing'])
    expect((await measureShard(await prepareRun(suite, ctx, undefined, undefined, { index: 1, count: 3 }), { store })).kind).toBe('open')
    const last = await measureShard(await prepareRun(suite, ctx, undefined, undefined, { index: 3, count: 3 }), { store })
    expect(last.kind).toBe('filed')
  })

  test("pending shows each shard done, running or missing; only a live writer of the same shard blocks a shard's resume", async () => {
    const { store, locator } = await backend.make()
    const ctx = contextOf(locator, createdAt(37))
    const suite = suiteOf([])
    expect((await measureShard(await prepareRun(suite, ctx, undefined, undefined, { index: 3, count: 3 }), { store })).kind).toBe('open')
    const running = await prepareRun(suite, ctx, undefined, undefined, { index: 1, count: 3 })
    // The leg's lease names another live process (a lease of this very process never holds).
    const writer = spawn('sleep', ['60'], { stdio: 'ignore' })
    const opening = journalHeaderFor(running, createdAt(37))
    const leg = await store.openJournal({ ...opening, lease: { ...opening.lease, pid: writer.pid!, start_time: null } }, running.leg)
    try {
      const pending = (await store.pending('acme', 'big'))[0]!
      expect(shardsOf(pending)?.map((s) => `${s.shard} ${s.state}`)).toEqual(['1/3 running', '2/3 missing', '3/3 done'])
      await expect(findShardPending(store, 'acme', 'big', running.key, { index: 1, count: 3 })).rejects.toMatchObject({ name: 'LiveRunError' })
      expect((await findShardPending(store, 'acme', 'big', running.key, { index: 2, count: 3 })).key).toBe(running.key)
    } finally {
      await leg.close()
      writer.kill('SIGKILL')
    }
  })

  test('a sharded journal resumed without a shard finishes every case left on one machine: the same bytes', async () => {
    const { store, locator } = await backend.make()
    const calls: string[] = []
    const ctx = contextOf(locator, createdAt(35))
    const shard = await prepareRun(suiteOf(calls), ctx, undefined, undefined, { index: 2, count: 3 })
    expect((await measureShard(shard, { store })).kind).toBe('open')
    const pending = (await store.pending('acme', 'big'))[0]!
    const whole = await prepareRun(suiteOf(calls), ctx, undefined, { pending, keepErrors: false })
    expect(whole.leg).toBe(3)
    expect(whole.plan.toCall).toBe(CASES - shard.mine!.size)
    const resumed = await measureRun(whole, { store })
    const reference = await measureRun(await prepareRun(suiteOf([]), ctx), { store: openStore({ store: (await backend.make()).locator }) })
    expect(serializeRun(resumed.document)).toBe(serializeRun(reference.document))
    expect([...calls].sort()).toEqual(suiteOf([]).cases.map((c) => c.id))
  })

  test('the merge refuses shards whose headers disagree, naming the field, and files nothing', async () => {
    const suite = suiteOf([])
    const at = createdAt(45)
    const [a, b, target] = [await backend.make(), await backend.make(), await backend.make()]
    await measureShard(await prepareRun(suite, contextOf(a.locator, at), undefined, undefined, { index: 1, count: 2 }), { store: a.store })
    const staging = { ...contextOf(b.locator, at), environment: 'staging' }
    await measureShard(await prepareRun(suite, staging, undefined, undefined, { index: 2, count: 2 }), { store: b.store })
    await expect(planMerge('acme', [a.locator, b.locator], target.store)).rejects.toMatchObject({
      name: 'ShardsDisagreeError',
      message: expect.stringContaining('environment differs') as unknown,
    })
    expect(await target.store.latestKey('acme', 'big')).toBeUndefined()
  })

  test('the merge refuses a case journaled by two shards, and files nothing', async () => {
    const suite = suiteOf([])
    const at = createdAt(40)
    const a = await backend.make()
    const b = await backend.make()
    const ctxA = contextOf(a.locator, at)
    const ctxB = contextOf(b.locator, at)
    const one = await prepareRun(suite, ctxA, undefined, undefined, { index: 1, count: 2 })
    await measureShard(one, { store: a.store })
    const two = await prepareRun(suite, ctxB, undefined, undefined, { index: 2, count: 2 })
    await measureShard(two, { store: b.store })
    // A leg of shard 2 (leg 4) that also holds a case of shard 1's share.
    const stray = [
      ...casesOfShard(
        suite.cases.map((c) => c.id),
        { index: 1, count: 2 },
      ),
    ][0]!
    const pendingA = (await a.store.pending('acme', 'big'))[0]!
    const leg = await b.store.openJournal(journalHeaderFor(two, at), 4)
    await leg.append({ result: pendingA.done.get(stray)!, cause: null, observed: pendingA.observed, index: 0 })
    await leg.close()
    const target = await backend.make()
    await expect(planMerge('acme', [a.locator, b.locator], target.store)).rejects.toMatchObject({ name: 'CaseInTwoShardsError' })
    expect(await target.store.latestKey('acme', 'big')).toBeUndefined()
    // The worker, which leaves the split to the CLI, still refuses the stray record by its case id.
    const filing = fileMergedRun(suite, contextOf(target.locator, at), target.store, { key: one.key, stores: [a.locator, b.locator] })
    await expect(filing).rejects.toMatchObject({ name: 'CaseInTwoShardsError', path: [stray] })
    expect(await target.store.latestKey('acme', 'big')).toBeUndefined()
    // Without the stray record the same shards merge.
    const clean = await backend.make()
    const fresh = await prepareRun(suite, contextOf(clean.locator, at), undefined, undefined, { index: 2, count: 2 })
    await measureShard(fresh, { store: clean.store })
    expect(await planMerge('acme', [a.locator, clean.locator], target.store)).toEqual([{ suite: 'big', key: one.key, count: 2, stores: [a.locator, clean.locator] }])
    const merged = await fileMergedRun(suite, contextOf(target.locator, at), target.store, { key: one.key, stores: [a.locator, clean.locator] })
    expect(merged.document.results.map((r) => r.case_id)).toEqual(suite.cases.map((c) => c.id))
    expect(await target.store.latestKey('acme', 'big')).toBe(one.key)
  })
})
