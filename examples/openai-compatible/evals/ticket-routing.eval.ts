// The same routing task as examples/triage, asked of a real chat model over an OpenAI-compatible
// endpoint. Without DIGLINE_EXAMPLE_BASE_URL the file registers one skipped test that says so, and
// never calls evalSuite (so no run is written and nothing is called).
import { test } from 'vitest'
import { evalSuite, scorers } from 'digline'
import { CASES } from '../src/cases.js'
import { chatCompletion } from '../src/chat-completion.js'
import { endpointFromEnvironment } from '../src/endpoint-settings.js'
import { PROMPT_VERSION, QUEUES, SYSTEM_PROMPT } from '../src/routing-prompt.js'

const endpoint = endpointFromEnvironment()
const TEMPERATURE = 0.3
const MAX_TOKENS = 16

if (!endpoint.ok) {
  // The default reporter does not print skipped tests' names, so say it once on stderr as well.
  console.warn(`ticket-routing ${endpoint.skipReason}`)
  test.skip(endpoint.skipReason, () => {})
} else {
  const settings = endpoint.settings
  evalSuite({
    name: 'ticket-routing',
    cases: CASES,
    target: {
      // The declared config; the model the endpoint reports back is recorded as the observed identity.
      config: { model: settings.model, temperature: TEMPERATURE, max_tokens: MAX_TOKENS, prompt: PROMPT_VERSION, system_prompt: SYSTEM_PROMPT },
      async ask(ticket: string, ctx) {
        const reply = await chatCompletion(
          settings,
          {
            messages: [
              { role: 'system', content: SYSTEM_PROMPT },
              { role: 'user', content: ticket },
            ],
            temperature: TEMPERATURE,
            max_tokens: MAX_TOKENS,
          },
          ctx.signal,
        )
        return { output: reply.content, model: reply.model, usage: reply.usage }
      },
    },
    samples: 3,
    minAgreement: 2 / 3,
    scorers: [
      // The answer is one queue name and nothing else (a trailing full stop is forgiven)…
      scorers.regex(new RegExp(`^\\s*(${QUEUES.join('|')})\\.?\\s*$`, 'i'), { name: 'one-queue' }),
      // …and it is the queue the case expects.
      scorers.includes({ caseInsensitive: true }),
    ],
    thresholds: { passRate: 0.75 },
    tolerances: { passRate: 0.1 },
    recordResponses: true,
    concurrency: 4,
    timeout: 300_000,
  })
}
