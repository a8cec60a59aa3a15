// The driver keeps a finished case (the journal) before its hooks, and lets slots keep at once, so
// cases that finish together share one durable write; the hooks still run one at a time, after
// their case is kept, and a slot starts its next case only once both returned.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import type { CaseProgress } from '../../../src/document/case-progress.js'
import { FileJournal } from '../../../src/store/file/journal.js'
import { nodeFsLayer, type FsLayer } from '../../../src/store/file/fs-layer.js'
import { journalHeader } from '../../store/journal-fixtures.js'
import { makeTempStore, type TempStore } from '../../store/temp-store.js'
import { counted, echoCases, sleep, suiteOf } from './fixture.js'

describe('execute: keeping a case, then its hooks', () => {
  it('keeps overlap across slots; hooks never overlap and each runs after its case was kept', async () => {
    const { target } = counted(async (input) => input)
    let keeping = 0
    let peakKeeping = 0
    let hooking = 0
    let hookOverlap = false
    const kept = new Set<string>()
    const hookedBeforeKept: string[] = []
    const hookOrder: string[] = []
    const keptOrder: string[] = []
    await execute({
      suite: suiteOf({ cases: echoCases(64), target, concurrency: 16 }),
      keep: async ({ result }) => {
        keeping++
        peakKeeping = Math.max(peakKeeping, keeping)
        await sleep(3)
        keeping--
        kept.add(result.case_id)
        keptOrder.push(result.case_id)
      },
      onCase: async ({ result }) => {
        if (!kept.has(result.case_id)) hookedBeforeKept.push(result.case_id)
        hooking++
        if (hooking > 1) hookOverlap = true
        await sleep(0)
        hooking--
        hookOrder.push(result.case_id)
      },
    })
    expect(peakKeeping).toBeGreaterThan(1)
    expect(peakKeeping).toBeLessThanOrEqual(16)
    expect(hookOverlap).toBe(false)
    expect(hookedBeforeKept).toEqual([])
    expect(hookOrder.sort()).toEqual(keptOrder.sort())
    expect(hookOrder).toHaveLength(64)
  })

  it('a slot starts its next case only after its case was kept and its hooks returned', async () => {
    let busy = 0
    let peak = 0
    const { target } = counted(async (input) => {
      busy++
      peak = Math.max(peak, busy)
      return input
    })
    const release = async (): Promise<void> => {
      await sleep(1)
    }
    await execute({
      suite: suiteOf({ cases: echoCases(40), target, concurrency: 4 }),
      keep: async () => release(),
      onCase: async () => {
        await release()
        busy--
      },
    })
    expect(peak).toBeLessThanOrEqual(4)
  })

  it('a keep that fails stops the run: no case starts after it, and execute rejects with its error', async () => {
    const { target, calls } = counted(async (input) => {
      await sleep(1)
      return input
    })
    const failure = new Error('disk full')
    const hooked: string[] = []
    const run = execute({
      suite: suiteOf({ cases: echoCases(50), target, concurrency: 2 }),
      keep: async ({ index }) => {
        if (index === 5) throw failure
      },
      onCase: ({ result }) => {
        hooked.push(result.case_id)
      },
    })
    await expect(run).rejects.toBe(failure)
    expect(calls.length).toBeLessThan(10)
    expect(hooked).not.toContain('c005')
  })
})

describe('execute: whether a case is kept alone', () => {
  it('at concurrency 1 every case is kept with no other case being asked', async () => {
    const { target } = counted(async (input) => input)
    const alone: boolean[] = []
    await execute({
      suite: suiteOf({ cases: echoCases(12), target, concurrency: 1 }),
      keep: async (_progress, isAlone) => void alone.push(isAlone),
    })
    expect(alone).toEqual(Array.from({ length: 12 }, () => true))
  })

  it('at concurrency 4, a case kept while others are asked is not alone; the last one is', async () => {
    // Case i answers after (i + 1) × 5 ms: each is kept while the later ones are still being asked.
    const { target } = counted(async (input) => {
      await sleep((Number(String(input).slice(-1)) + 1) * 5)
      return input
    })
    const alone = new Map<string, boolean>()
    await execute({
      suite: suiteOf({ cases: echoCases(4), target, concurrency: 4 }),
      keep: async ({ result }, isAlone) => void alone.set(result.case_id, isAlone),
    })
    expect([...alone]).toEqual([
      ['c000', false],
      ['c001', false],
      ['c002', false],
      ['c003', true],
    ])
  })
})

describe('execute with a file journal at concurrency 32', () => {
  let temp: TempStore
  beforeEach(() => {
    temp = makeTempStore()
  })
  afterEach(() => temp.cleanup())

  it('instant cases share fsyncs: far fewer fsyncs than cases, every case in the journal', async () => {
    let fsyncs = 0
    const layer: FsLayer = {
      ...nodeFsLayer,
      fsync: async (handle) => {
        fsyncs++
        await nodeFsLayer.fsync(handle)
      },
    }
    const journal = new FileJournal({ root: temp.root, fs: layer })
    const cases = echoCases(320)
    const leg = await journal.openJournal(journalHeader({ declared: { samples: 1, digests: Object.fromEntries(cases.map((c) => [c.id, '000000000000'])) } }), 1)
    const before = fsyncs
    const { target } = counted(async (input) => input)
    const kept: CaseProgress[] = []
    await execute({
      suite: suiteOf({ cases, target, concurrency: 32 }),
      keep: async (progress) => {
        await leg.append(progress)
        kept.push(progress)
      },
    })
    await leg.close()
    expect(kept).toHaveLength(320)
    const pending = await journal.pending(journalHeader().tenant, journalHeader().suite)
    expect(pending[0]!.done.size).toBe(320)
    // One at a time this took 320 fsyncs; sharing them, at most a few per wave of 32.
    expect(fsyncs - before).toBeLessThan(320 / 4)
  })
})
