// The bill a launch announces is what it spends, in every launch mode (issue 23 item 2): in-process,
// a real file store, a counted deterministic target. A shard with the response cache on reads the
// cache it announced, and a shard's budget stops it as a whole run's does.
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { launchSuite, type LaunchSuiteOptions } from '../../../src/host/launch/launch-suite.js'
import type { RunContext } from '../../../src/host/launch/prepare-run.js'
import { exact } from '../../../src/scorers/exact.js'
import { openStore } from '../../../src/store/open-store.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { Budget } from '../../../src/suite/types.js'

const CASES = 6

function suiteOf(calls: string[], budget?: Budget) {
  return resolveSuite({
    name: 'billed',
    cases: Array.from({ length: CASES }, (_, i) => ({ id: `c${i}`, input: i, expected: i })),
    target: {
      config: { model: 'det-v1' },
      ask(input: unknown, ctx) {
        calls.push(`${ctx.caseId}:${ctx.sample}`)
        return Promise.resolve({ output: input, model: 'det-v1-2026' })
      },
    },
    scorers: [exact()],
    cache: true,
    concurrency: 1,
    ...(budget === undefined ? {} : { budget }),
  })
}

function place() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'digline-bill-')))
  const storeRoot = join(root, '.digline')
  const ctx = (env: NodeJS.ProcessEnv): RunContext => ({ tenant: 'acme', environment: 'local', storeRoot, projectRoot: root, env })
  return { store: openStore({ store: storeRoot }), ctx }
}

const at = (second: number) => `2026-11-29T22:39:${String(second).padStart(2, '0')}.123456Z`

async function launched(options: Omit<LaunchSuiteOptions, 'say' | 'only'>) {
  const said: string[] = []
  const launch = await launchSuite({ ...options, only: undefined, say: (line) => said.push(line) })
  return { launch, said }
}

test('a shard with the cache filled announces 0 calls and makes 0; its budget is what it spends', async () => {
  const { store, ctx } = place()
  const calls: string[] = []
  const whole = await launched({ suite: suiteOf(calls), ctx: ctx({ DIGLINE_CREATED_AT: at(10) }), store })
  await whole.launch.run({ hooks: [], onCase: () => undefined })
  expect(calls).toHaveLength(CASES)

  calls.length = 0
  const shard = await launched({ suite: suiteOf(calls), ctx: ctx({ DIGLINE_CREATED_AT: at(11) }), store, shard: { index: 1, count: 2 } })
  expect(shard.launch.prepared.plan).toMatchObject({ calls: 0, cached: 3 })
  await shard.launch.run({ hooks: [], onCase: () => undefined })
  expect(calls).toEqual([])

  // With budget calls 1 and the cache full, the shard announced 0 calls: it makes none, and its budget holds.
  const budgeted = await launched({ suite: suiteOf(calls, { calls: 1 }), ctx: ctx({ DIGLINE_CREATED_AT: at(12) }), store, shard: { index: 2, count: 2 } })
  expect(budgeted.launch.prepared.plan.calls).toBe(0)
  await budgeted.launch.run({ hooks: [], onCase: () => undefined })
  expect(calls).toEqual([])
})

test('a shard over its budget (--over-budget) stops at the budget, as a whole run does', async () => {
  const { store, ctx } = place()
  const calls: string[] = []
  const shard = await launched({
    suite: suiteOf(calls, { calls: 1 }),
    ctx: ctx({ DIGLINE_CREATED_AT: at(20), DIGLINE_OVER_BUDGET: '1', DIGLINE_CACHE: '0' }),
    store,
    shard: { index: 1, count: 2 },
  })
  expect(shard.launch.prepared.plan.calls).toBe(3)
  await expect(shard.launch.run({ hooks: [], onCase: () => undefined })).rejects.toMatchObject({ name: 'BudgetReachedError' })
  expect(calls).toHaveLength(1)
})

test('every launch mode calls exactly what it announced, with the cache half filled', async () => {
  const { store, ctx } = place()
  const calls: string[] = []
  // Half the cases' answers in the cache: a filtered run keeps no journal, but its answers are cached.
  const filler = await launchSuite({ suite: suiteOf(calls), ctx: ctx({ DIGLINE_CREATED_AT: at(30) }), store, only: new Set(['c0', 'c1', 'c2']), say: () => undefined })
  await filler.run({ hooks: [], onCase: () => undefined })
  const modes: { name: string; options: Omit<LaunchSuiteOptions, 'say' | 'only' | 'store' | 'suite'> }[] = [
    { name: 'fresh', options: { ctx: ctx({ DIGLINE_CREATED_AT: at(31) }) } },
    { name: 'shard 1/2', options: { ctx: ctx({ DIGLINE_CREATED_AT: at(32) }), shard: { index: 1, count: 2 } } },
    { name: 'shard 2/2', options: { ctx: ctx({ DIGLINE_CREATED_AT: at(33) }), shard: { index: 2, count: 2 } } },
  ]
  for (const mode of modes) {
    calls.length = 0
    const { launch, said } = await launched({ ...mode.options, suite: suiteOf(calls), store })
    await launch.run({ hooks: [], onCase: () => undefined })
    expect({ mode: mode.name, calls: calls.length }, said.join('\n')).toEqual({ mode: mode.name, calls: launch.prepared.plan.calls })
  }
})

// issue 23 item 3: the worker of an acknowledged run refuses a bill other than the acknowledged one.
test('a launch whose bill differs from the acknowledged one is refused before any call; the acknowledged bill runs', async () => {
  const { store, ctx } = place()
  const calls: string[] = []
  const options = { suite: suiteOf(calls), ctx: ctx({ DIGLINE_CREATED_AT: at(40), DIGLINE_CACHE: '0' }), store, only: undefined, say: () => undefined }
  const wrong: Record<string, number>[] = [{ billed: CASES - 1 }, { other: CASES }]
  for (const acknowledged of wrong) {
    await expect(launchSuite({ ...options, acknowledged })).rejects.toMatchObject({ name: 'BillChangedError' })
  }
  expect(calls).toEqual([])
  const launch = await launchSuite({ ...options, acknowledged: { billed: CASES } })
  await launch.run({ hooks: [], onCase: () => undefined })
  expect(calls).toHaveLength(CASES)
})
