// A case's signal is made when first read (ADR 0564): a target and scorers that never read it cost
// no AbortController, and one read after the run stopped is already aborted with the stop's reason.
import { afterEach, describe, expect, it } from 'vitest'
import { CaseSignal } from '../../../src/driver/case-signal.js'
import { execute } from '../../../src/driver/execute.js'
import type { Scorer } from '../../../src/suite/types.js'
import { echoCases, sleep, suiteOf } from './fixture.js'

const Original = globalThis.AbortController
let made = 0
/** Counts the AbortControllers made while it is installed; the driver's own run signal is made before. */
function countControllers(): void {
  made = 0
  globalThis.AbortController = class Counted extends Original {
    constructor() {
      super()
      made++
    }
  }
}
afterEach(() => {
  globalThis.AbortController = Original
})

describe('CaseSignal', () => {
  it('is aborted without a signal being made, and the signal read afterwards carries the reason', () => {
    countControllers()
    const stop = new CaseSignal()
    stop.abort('first')
    stop.abort('second')
    expect(stop.aborted).toBe(true)
    expect(made).toBe(0)
    expect(stop.signal.aborted).toBe(true)
    expect(stop.signal.reason).toBe('first')
    expect(made).toBe(1)
  })

  it('aborts a signal already read, once, and hands the same signal on every read', () => {
    const stop = new CaseSignal()
    const signal = stop.signal
    let heard = 0
    signal.addEventListener('abort', () => heard++)
    expect(stop.aborted).toBe(false)
    stop.abort('stopped')
    stop.abort('again')
    expect(stop.signal).toBe(signal)
    expect([signal.aborted, signal.reason, heard]).toEqual([true, 'stopped', 1])
  })
})

describe('execute', () => {
  it('makes no AbortController for 50 cases whose target and scorer never read the signal', async () => {
    const target = (input: unknown) => input
    countControllers()
    const { results } = await execute({ suite: suiteOf({ cases: echoCases(50), target, concurrency: 8 }) })
    expect(results.every((r) => r.verdict === 'pass')).toBe(true)
    expect(made).toBe(0)
  })

  it('hands a target and a scorer that read it the case’s one signal', async () => {
    const seen: AbortSignal[] = []
    const target = (input: unknown, ctx: { signal: AbortSignal }) => (seen.push(ctx.signal), input)
    const scorer: Scorer = ({ signal }) => (seen.push(signal!), true)
    await execute({ suite: suiteOf({ cases: echoCases(2), target, scorers: [scorer], concurrency: 1 }) })
    expect(seen).toHaveLength(4)
    expect(seen[0]).toBe(seen[1])
    expect(seen[2]).toBe(seen[3])
    expect(seen[0]).not.toBe(seen[2])
  })

  it('a case in flight whose target reads its signal only after the run stopped finds it aborted with the reason', async () => {
    const run = new AbortController()
    const read: AbortSignal[] = []
    const target = async (input: unknown, ctx: { signal: AbortSignal }) => {
      await sleep(20)
      read.push(ctx.signal)
      return input
    }
    const pending = execute({ suite: suiteOf({ cases: echoCases(4), target, concurrency: 4 }), signal: run.signal })
    await sleep(5)
    run.abort('operator stop')
    await expect(pending).rejects.toBe('operator stop')
    expect(read.length).toBeGreaterThan(0)
    for (const signal of read) expect([signal.aborted, signal.reason]).toEqual([true, 'operator stop'])
  })
})
