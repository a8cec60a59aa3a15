// The full triage decision as structured output: valid JSON of the right shape (scorers.json with a
// zod schema), and a priority that is right or errs on the side of urgency (a custom scorer).
import { evalSuite, scorers } from 'digline'
import { z } from 'zod'
import { PRIORITIES, QUEUES, priorityLevel, isPriority } from '../src/queues.js'
import { ARTIFACTS, heldOut, model, SETTINGS, triage } from './triage-setup.js'

const decisionSchema = z.object({
  queue: z.enum(QUEUES),
  priority: z.enum(PRIORITIES),
  confidence: z.number().min(0).max(1),
  reason: z.string().min(1).max(200),
})

/**
 * Full marks for the expected priority. One level too urgent still passes (0.75): a P3 handled as P2
 * costs a little time. One level too calm fails (0.25): a P1 handled as P2 is an outage that waits.
 */
const priority = {
  name: 'priority',
  config: { exact: 1, one_level_too_urgent: 0.75, one_level_too_calm: 0.25, otherwise: 0, pass_at: 0.75 },
  score({ output, expected }: { output: unknown; expected: unknown }) {
    if (!isPriority(expected)) throw new Error(`the case's expected priority ${JSON.stringify(expected)} is not one of ${PRIORITIES.join(', ')}`)
    let said: unknown
    try {
      said = (JSON.parse(String(output)) as { priority?: unknown }).priority
    } catch {
      return { pass: false, score: 0, reason: 'the output is not JSON' }
    }
    if (!isPriority(said)) return { pass: false, score: 0, reason: `no valid priority in the output (${JSON.stringify(said)})` }
    const off = priorityLevel(said) - priorityLevel(expected)
    if (off === 0) return { pass: true, score: 1 }
    if (off === -1) return { pass: true, score: 0.75, reason: `${said} for a ${expected} ticket: one level too urgent` }
    if (off === 1) return { pass: false, score: 0.25, reason: `${said} for a ${expected} ticket: one level too calm` }
    return { pass: false, score: 0, reason: `${said} for a ${expected} ticket: ${Math.abs(off)} levels ${off > 0 ? 'too calm' : 'too urgent'}` }
  },
}

evalSuite({
  name: 'triage-priority',
  cases: heldOut.map((t) => ({ id: t.id, input: t.text, expected: t.priority })),
  target: {
    config: { ...SETTINGS, output: 'json' },
    async ask(text: string, ctx) {
      const decision = await triage(text, ctx)
      return { output: JSON.stringify(decision), model: model.id }
    },
  },
  samples: 3,
  minAgreement: 2 / 3,
  scorers: [scorers.json(decisionSchema), priority],
  // Measured: 45 of 60 tickets (0.75), mean score 0.87 (the mean of both scorers). Bars sit ~0.1 below.
  thresholds: { passRate: 0.65, meanScore: 0.75 },
  tolerances: { passRate: 0.05 },
  recordResponses: true,
  concurrency: 8,
  artifacts: [...ARTIFACTS],
})
