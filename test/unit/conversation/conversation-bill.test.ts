// The bill a conversation suite announces (ADR 0382): every target turn and every simulated-user
// message is a call, as the budget counts them, so the bill the budget and acknowledgements are held
// to is what the cases may make; with a simulated user it is a ceiling.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { announce, prepareRun, type RunContext } from '../../../src/host/launch/prepare-run.js'
import { execute } from '../../../src/driver/execute.js'
import { conversationStep } from '../../../src/driver/conversation-step.js'
import { suiteOf } from '../driver/fixture.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'

function context(): RunContext {
  const projectRoot = mkdtempSync(join(tmpdir(), 'digline-conversation-bill-'))
  return { tenant: 'acme', environment: 'local', storeRoot: join(projectRoot, '.digline'), projectRoot, env: { DIGLINE_CREATED_AT: '2026-12-03T23:00:00.000000Z' } }
}

let targetCalls = 0
let userCalls = 0
const target = {
  config: { model: 'shop-v1' },
  ask: async () => (targetCalls++, { output: 'ok', model: 'shop-v1' }),
}
const user = {
  config: { model: 'rules-v1' },
  maxTurns: 3,
  async next() {
    userCalls++
    return { text: 'more please', done: false, model: 'rules-v1' }
  },
}

function suite(definition: Partial<SuiteDefinition>) {
  return suiteOf({ cases: [], target, scorers: [{ name: 'any', score: () => true }], concurrency: 2, ...definition } as SuiteDefinition)
}

describe('the bill of a conversation suite', () => {
  it('counts every scripted turn of every sample, exactly, and the launch makes that many calls', async () => {
    const s = suite({
      cases: [
        { id: 'a', input: { script: ['hi', 'refund', 'thanks'] } },
        { id: 'b', input: { script: ['hi'] } },
      ],
      conversation: {},
      samples: 2,
    })
    const prepared = await prepareRun(s, context())
    expect(prepared.plan.calls).toBe((3 + 1) * 2)
    expect(announce(s.name, prepared.plan)).toContain("2 of 2 cases × 2 samples × each conversation's turns = 8 calls to the target")
    targetCalls = 0
    await execute({ suite: s, step: conversationStep })
    expect(targetCalls).toBe(prepared.plan.calls)
  })

  it('with a simulated user, counts its messages too and calls the bill a ceiling the launch stays within', async () => {
    const s = suite({
      cases: [
        { id: 'a', input: { goal: 'a refund' } },
        { id: 'b', input: { goal: 'a refund', maxTurns: 1 } },
      ],
      conversation: { user },
    })
    const prepared = await prepareRun(s, context())
    expect(prepared.plan.calls).toBe(2 * 3 + 2 * 1)
    expect(announce(s.name, prepared.plan)).toContain("× 1 sample × each conversation's turns and its simulated user's messages = at most 8 calls")
    targetCalls = 0
    userCalls = 0
    await execute({ suite: s, step: conversationStep })
    expect(targetCalls + userCalls).toBe(8)
  })

  it('a filtered run bills only the conversations it selects', async () => {
    const s = suite({
      cases: [
        { id: 'a', input: { script: ['1', '2', '3', '4'] } },
        { id: 'b', input: { script: ['1'] } },
      ],
      conversation: {},
    })
    const prepared = await prepareRun(s, context(), new Set(['a']))
    expect(prepared.plan.calls).toBe(4)
  })

  it('a suite of single answers keeps one call per sample and no conversation wording', async () => {
    const s = suite({
      cases: [
        { id: 'a', input: 1 },
        { id: 'b', input: 2 },
      ],
      samples: 3,
    })
    const prepared = await prepareRun(s, context())
    expect(prepared.plan.calls).toBe(6)
    expect(prepared.plan.conversation).toBeUndefined()
    expect(announce(s.name, prepared.plan)).toContain('2 of 2 cases × 3 samples = 6 calls to the target')
  })
})
