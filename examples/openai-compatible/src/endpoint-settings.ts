// Where the example's target sends its requests, read from the environment. A missing base URL is
// not an error: the suite is skipped and says which variable to set.

export interface EndpointSettings {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM). */
  baseUrl: string
  model: string
  /** Sent as a bearer token when set; local servers usually need none. */
  apiKey: string | undefined
}

export type EndpointLookup = { ok: true; settings: EndpointSettings } | { ok: false; skipReason: string }

export function endpointFromEnvironment(env: NodeJS.ProcessEnv = process.env): EndpointLookup {
  const baseUrl = env.DIGLINE_EXAMPLE_BASE_URL?.trim()
  const model = env.DIGLINE_EXAMPLE_MODEL?.trim()
  const apiKey = env.DIGLINE_EXAMPLE_API_KEY?.trim() || undefined
  if (!baseUrl) return { ok: false, skipReason: 'skipped: set DIGLINE_EXAMPLE_BASE_URL to run against an OpenAI-compatible endpoint' }
  if (!model) return { ok: false, skipReason: 'skipped: set DIGLINE_EXAMPLE_MODEL to the model the endpoint at DIGLINE_EXAMPLE_BASE_URL serves' }
  try {
    new URL(baseUrl)
  } catch {
    return { ok: false, skipReason: `skipped: DIGLINE_EXAMPLE_BASE_URL (${JSON.stringify(baseUrl)}) is not a URL, e.g. http://localhost:11434/v1` }
  }
  return { ok: true, settings: { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey } }
}
