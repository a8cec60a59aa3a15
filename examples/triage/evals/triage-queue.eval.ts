// Does the triage system send each held-out ticket to the right queue? Three samples per ticket at
// temperature 0.3; a ticket passes when at least two of the three answers name the expected queue.
import { evalSuite, scorers } from 'digline'
import { ARTIFACTS, heldOut, model, SETTINGS, triage } from './triage-setup.js'

evalSuite({
  name: 'triage-queue',
  cases: heldOut.map((t) => ({ id: t.id, input: t.text, expected: t.queue })),
  target: {
    config: { ...SETTINGS },
    async ask(text: string, ctx) {
      const decision = await triage(text, ctx)
      return { output: decision.queue, model: model.id }
    },
  },
  samples: 3,
  minAgreement: 2 / 3,
  scorers: [scorers.exact()],
  // Measured: 48 of 60 tickets (0.80). The bar sits 0.10 below, the tolerance at three flipped tickets.
  thresholds: { passRate: 0.7 },
  tolerances: { passRate: 0.05 },
  recordResponses: true,
  concurrency: 8,
  artifacts: [...ARTIFACTS],
})
