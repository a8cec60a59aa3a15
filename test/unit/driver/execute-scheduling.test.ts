import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import type { CaseProgress } from '../../../src/document/case-progress.js'
import { counted, echoCases, sleep, suiteOf } from './fixture.js'

describe('execute: concurrency', () => {
  it('never has more than `concurrency` cases in flight, and does reach it', async () => {
    let inFlight = 0
    let peak = 0
    const { target } = counted(async (input, ctx) => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await sleep(1 + ((ctx.caseId.charCodeAt(3) + ctx.sample) % 5))
      inFlight--
      return input
    })
    const { results } = await execute({ suite: suiteOf({ cases: echoCases(60), target, concurrency: 7, samples: 2 }) })
    expect(results.every((r) => r.verdict === 'pass')).toBe(true)
    expect(peak).toBe(7)
  })

  it('runs the samples of one case one after another, in order', async () => {
    const open = new Map<string, number>()
    let overlap = false
    const { target, calls } = counted(async (input, ctx) => {
      const n = (open.get(ctx.caseId) ?? 0) + 1
      open.set(ctx.caseId, n)
      if (n > 1) overlap = true
      await sleep(2)
      open.set(ctx.caseId, n - 1)
      return input
    })
    await execute({ suite: suiteOf({ cases: echoCases(8), target, concurrency: 4, samples: 3 }) })
    expect(overlap).toBe(false)
    for (const id of ['c000', 'c005']) expect(calls.filter((c) => c.caseId === id).map((c) => c.sample)).toEqual([0, 1, 2])
  })

  it('200 cases of 20 ms at concurrency 20 take a fraction of the serial time', async () => {
    const { target } = counted(async (input) => {
      await sleep(20)
      return input
    })
    const serialMs = 200 * 20
    const started = performance.now()
    const { results, targetCalls } = await execute({ suite: suiteOf({ cases: echoCases(200), target, concurrency: 20 }) })
    const elapsed = performance.now() - started
    expect(results).toHaveLength(200)
    expect(targetCalls).toBe(200)
    // Ideal is 1/20 (200 ms); a quarter leaves room for a loaded machine and still proves parallelism.
    expect(elapsed / serialMs).toBeLessThan(0.25)
  })
})

describe('execute: onCase', () => {
  it('is awaited before its slot starts the next case, and never runs twice at once', async () => {
    const concurrency = 3
    let started = 0
    let hooked = 0
    let hookRunning = 0
    let worstSlack = 0
    let overlapped = false
    const { target } = counted(async (input, ctx) => {
      if (ctx.sample === 0) {
        started++
        // A slot is busy from its case's first call until its onCase returned.
        worstSlack = Math.max(worstSlack, started - hooked)
      }
      await sleep(1)
      return input
    })
    const order: string[] = []
    await execute({
      suite: suiteOf({ cases: echoCases(30), target, concurrency, samples: 2 }),
      onCase: async (p: CaseProgress) => {
        hookRunning++
        if (hookRunning > 1) overlapped = true
        await sleep(5)
        order.push(p.result.case_id)
        hookRunning--
        hooked++
      },
    })
    expect(overlapped).toBe(false)
    expect(worstSlack).toBeLessThanOrEqual(concurrency)
    expect(order).toHaveLength(30)
    expect(new Set(order).size).toBe(30)
  })

  it('with concurrency 1, alternates case and hook strictly', async () => {
    const events: string[] = []
    const { target } = counted((input, ctx) => {
      events.push(`call ${ctx.caseId}`)
      return input
    })
    await execute({
      suite: suiteOf({ cases: echoCases(3), target }),
      onCase: async (p) => {
        await sleep(2)
        events.push(`hook ${p.result.case_id}`)
      },
    })
    expect(events).toEqual(['call c000', 'hook c000', 'call c001', 'hook c001', 'call c002', 'hook c002'])
  })

  it('carries the cause of an errored case, and null for a judged one', async () => {
    const { target } = counted((input) => {
      if (input === 'c001') throw new Error('down')
      return input
    })
    const causes: (string | null)[] = []
    await execute({ suite: suiteOf({ cases: echoCases(3), target }), onCase: (p) => void causes.push(p.cause) })
    expect(causes).toEqual([null, 'target', null])
  })

  it('a throwing onCase stops the run: no new call, in-flight cases settle without onCase, execute rejects with it', async () => {
    const signals: AbortSignal[] = []
    const { target, calls } = counted(async (input, ctx) => {
      signals.push(ctx.signal)
      await sleep(3)
      return input
    })
    const failure = new Error('journal write failed')
    let hookCalls = 0
    let callsAtThrow = -1
    const run = execute({
      suite: suiteOf({ cases: echoCases(40), target, concurrency: 4, samples: 3 }),
      onCase: () => {
        hookCalls++
        if (hookCalls === 5) {
          callsAtThrow = calls.length
          throw failure
        }
      },
    })
    await expect(run).rejects.toBe(failure)
    const callsAtReject = calls.length
    await sleep(30)
    expect(hookCalls).toBe(5)
    expect(calls.length).toBe(callsAtThrow)
    expect(callsAtReject).toBe(callsAtThrow)
    expect(callsAtThrow).toBeLessThan(40 * 3)
    expect(signals.at(-1)!.aborted).toBe(true)
    expect(signals.at(-1)!.reason).toBe(failure)
  })

  it('an external abort stops the run the same way and rejects with its reason', async () => {
    const controller = new AbortController()
    const reason = new Error('user pressed ctrl-c')
    const { target, calls } = counted(async (input) => {
      await sleep(3)
      return input
    })
    let hookCalls = 0
    const run = execute({
      suite: suiteOf({ cases: echoCases(40), target, concurrency: 4, samples: 2 }),
      signal: controller.signal,
      onCase: () => {
        if (++hookCalls === 3) controller.abort(reason)
      },
    })
    let callsAtAbort = -1
    controller.signal.addEventListener('abort', () => (callsAtAbort = calls.length))
    await expect(run).rejects.toBe(reason)
    await sleep(20)
    expect(hookCalls).toBe(3)
    expect(calls.length).toBe(callsAtAbort)
  })

  it('counts every call actually made, errored ones included', async () => {
    const { target, calls } = counted((input, ctx) => {
      if (input === 'c002' && ctx.sample === 1) throw new Error('flaky')
      return input
    })
    const { targetCalls } = await execute({ suite: suiteOf({ cases: echoCases(5), target, samples: 3, concurrency: 2 }) })
    expect(targetCalls).toBe(calls.length)
    expect(targetCalls).toBe(4 * 3 + 2)
  })
})
