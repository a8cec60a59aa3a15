// What a run holds per call until its document is written: the results. Each result is kept for the
// whole run, so its arrays are sized to their content (an array grown by push keeps 17 slots, which
// made a sample's scores and a case's samples cost twice what they hold).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { suiteOf } from './fixture.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

function heapAfterGc(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

describe('the results a run holds', () => {
  it('cost under 240 bytes of heap per call (10 samples, one scorer, answers not recorded)', async () => {
    const CASES = 2000
    const SAMPLES = 10
    const cases = Array.from({ length: CASES }, (_, i) => ({ id: `m${String(i).padStart(5, '0')}`, input: i }))
    const suite = suiteOf({
      cases,
      target: async (i: unknown) => String(i),
      samples: SAMPLES,
      minAgreement: 0.5,
      scorers: [({ output }) => typeof output === 'string'],
      concurrency: 4,
    })
    const before = heapAfterGc()
    const execution = await execute({ suite })
    const perCall = (heapAfterGc() - before) / (CASES * SAMPLES)
    expect(execution.results).toHaveLength(CASES)
    expect(execution.results.every((r) => r.samples.length === SAMPLES && r.samples.every((s) => s.scorers.length === 1))).toBe(true)
    expect(perCall, `${perCall.toFixed(0)} B per call`).toBeLessThan(240)
  })
})
