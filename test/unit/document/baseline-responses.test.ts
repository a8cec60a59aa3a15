// A baseline keeps no answer: not a sample's output, not a tool call's arguments or result, not what
// was said in a conversation's turns — whatever the promoted run recorded (SPEC §7).
import { describe, expect, it } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import type { RunDocument } from '../../../src/document/schema.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

function recordedConversation(): RunDocument {
  const run = makeRun({ results: 2 })
  const [first, second] = run.results
  const tool = { type: 'tool' as const, name: 'lookup', ok: true, latency_ms: 3, arguments: { order: 'SECRET-1001' }, result: { status: 'SECRET-shipped' } }
  const turns = [
    { role: 'user' as const, content: 'SECRET my order is 1001' },
    { role: 'assistant' as const, content: 'SECRET it shipped', usage: { input_tokens: 4, output_tokens: 2 }, steps: [tool] },
  ]
  return {
    ...run,
    results: [
      { ...first!, samples: first!.samples.map((s) => ({ ...s, output: 'SECRET it shipped', turns })) },
      { ...second!, samples: second!.samples.map((s) => ({ ...s, output: 'SECRET', steps: [tool] })) },
    ],
  } as RunDocument
}

describe('baselineOf', () => {
  it('drops turn texts and the tool arguments and results inside turns and steps, and keeps their shape', () => {
    const run = recordedConversation()
    const baseline = baselineOf(run, keyOf(run), '2026-12-03T20:00:00.000000Z')
    expect(JSON.stringify(baseline)).not.toContain('SECRET')
    const sample = baseline.results[0]!.samples[0]!
    expect(sample.turns).toEqual([
      { role: 'user' },
      { role: 'assistant', usage: { input_tokens: 4, output_tokens: 2 }, steps: [{ type: 'tool', name: 'lookup', ok: true, latency_ms: 3 }] },
    ])
    expect(baseline.results[1]!.samples[0]!.steps).toEqual([{ type: 'tool', name: 'lookup', ok: true, latency_ms: 3 }])
  })
})
