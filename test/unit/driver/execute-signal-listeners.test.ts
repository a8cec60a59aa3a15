// Issue 17 item 5: a target that hands its signal to fetch leaves a listener on it per request. Each
// case gets a signal of its own, so 5,000 cases at concurrency 32 leave the run's signal with the one
// listener execute adds, and no signal ever holds more than the case's own requests.
import { getEventListeners } from 'node:events'
import { expect, test } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { echoCases, suiteOf } from './fixture.js'

test('5,000 cases at concurrency 32: the run signal keeps one listener, each case signal only its own', async () => {
  const run = new AbortController()
  const signals = new Set<AbortSignal>()
  let mostOnOne = 0
  let mostOnRun = 0
  const warnings: Error[] = []
  const onWarning = (w: Error) => void (w.name === 'MaxListenersExceededWarning' && warnings.push(w))
  process.on('warning', onWarning)
  try {
    const target = {
      async ask(input: unknown, ctx: { signal: AbortSignal }) {
        // what fetch does with the signal it is given: one listener per request, kept until it settles
        const onAbort = () => {}
        ctx.signal.addEventListener('abort', onAbort)
        signals.add(ctx.signal)
        mostOnOne = Math.max(mostOnOne, getEventListeners(ctx.signal, 'abort').length)
        mostOnRun = Math.max(mostOnRun, getEventListeners(run.signal, 'abort').length)
        await new Promise((r) => setImmediate(r))
        return { output: input }
      },
    }
    const suite = suiteOf({ cases: echoCases(5000), target, samples: 1, concurrency: 32 })
    const result = await execute({ suite, signal: run.signal })
    expect(result.results).toHaveLength(5000)
  } finally {
    process.off('warning', onWarning)
  }
  expect(signals.size).toBe(5000)
  expect(mostOnOne).toBe(1)
  expect(mostOnRun).toBe(1)
  expect(getEventListeners(run.signal, 'abort')).toHaveLength(0)
  await new Promise((r) => setImmediate(r))
  expect(warnings).toEqual([])
})
