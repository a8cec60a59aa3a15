// What the model adapters refuse: their options, a missing API key, a missing optional peer
// dependency.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../errors/base.js'

export class InvalidModelOptionsError extends DiglineRefusal {
  readonly name = 'InvalidModelOptionsError'
}
export class MissingApiKeyError extends DiglineRefusal {
  readonly name = 'MissingApiKeyError'
}
export class MissingPeerDependencyError extends DiglineRefusal {
  readonly name = 'MissingPeerDependencyError'
}

export const MODEL_REFUSALS = {
  InvalidModelOptionsError: {
    error: InvalidModelOptionsError,
    when: 'A model adapter or an LLM judge from `digline/models` / `scorers.llmJudge` was given invalid options (no model, a bad retry ceiling or in-flight cap, a bad scale or rubric).',
    next: 'Fix the option named in the message in the suite file (see docs/models.md).',
  },
  MissingApiKeyError: {
    error: MissingApiKeyError,
    when: 'An OpenAI-compatible adapter aimed at the default OpenAI endpoint found no API key (neither `apiKey` nor the environment variable it reads).',
    next: 'Set the environment variable named in the message (OPENAI_API_KEY by default), or set `baseURL` for a server that needs no key.',
  },
  MissingPeerDependencyError: {
    error: MissingPeerDependencyError,
    when: 'A `digline/models` adapter needs an optional peer dependency (`openai` or `ai`) that is not installed.',
    next: 'Install it, e.g. `npm install -D openai@6` or `npm install -D ai@6 @ai-sdk/openai@3` (docs/models.md lists the versions).',
  },
} as const satisfies RefusalFamily
