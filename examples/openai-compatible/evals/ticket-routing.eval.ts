// The routing task of examples/triage, asked of a real chat model over an OpenAI-compatible endpoint
// and graded by an LLM judge as well as by two plain scorers. Without DIGLINE_EXAMPLE_MODEL the file
// registers one skipped test that says so, and never calls evalSuite (nothing is called or written).
import { test } from 'vitest'
import { evalSuite, scorers } from 'digline'
import { openaiModel, openaiTarget } from 'digline/models'
import { CASES } from '../src/cases.js'
import { endpointFromEnvironment } from '../src/endpoint-settings.js'
import { JUDGE_RUBRIC, PROMPT_VERSION, QUEUES, SYSTEM_PROMPT } from '../src/routing-prompt.js'

const endpoint = endpointFromEnvironment()

if (!endpoint.ok) {
  // The default reporter does not print skipped tests' names, so say it once on stderr as well.
  console.warn(`ticket-routing ${endpoint.skipReason}`)
  test.skip(endpoint.skipReason, () => {})
} else {
  const { baseURL, model, judgeModel } = endpoint.settings
  // One pool for the target and the judge: at most 4 requests in flight to the endpoint, whatever
  // the number of suites and workers. The key comes from OPENAI_API_KEY and is never recorded.
  const calls = { baseURL, maxInFlight: 4, retry: { attempts: 5, baseMs: 500, maxMs: 30_000 } }
  evalSuite({
    name: 'ticket-routing',
    cases: CASES,
    // Declared: model, base URL, temperature, max_tokens, the system prompt and its version. Observed:
    // the model id the endpoint reports back (e.g. gpt-4o-mini-2024-07-18).
    target: openaiTarget({ model, ...calls, temperature: 0.3, maxTokens: 16, system: SYSTEM_PROMPT, config: { prompt: PROMPT_VERSION } }),
    samples: 3,
    minAgreement: 2 / 3,
    scorers: [
      // The answer is one queue name and nothing else (a trailing full stop is forgiven)…
      scorers.regex(new RegExp(`^\\s*(${QUEUES.join('|')})\\.?\\s*$`, 'i'), { name: 'one-queue' }),
      // …it is the queue the case expects…
      scorers.includes({ caseInsensitive: true }),
      // …and a judge agrees it is the right call for the ticket.
      scorers.llmJudge({ model: openaiModel({ model: judgeModel, ...calls, temperature: 0 }), rubric: JUDGE_RUBRIC }),
    ],
    thresholds: { passRate: 0.75 },
    tolerances: { passRate: 0.1 },
    recordResponses: true,
    concurrency: 4,
    // USD per million tokens, as OpenAI listed them when this was written; check your provider's.
    // A model missing here is named under aggregates.cost.unpriced.
    prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 }, 'gpt-4.1-mini': { input: 0.4, output: 1.6 } },
    timeout: 300_000,
  })
}
