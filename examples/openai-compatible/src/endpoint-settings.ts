// Where the example's target and judge send their requests, read from the environment. Nothing set
// is not an error: the suite is skipped and says which variable to set.

export interface EndpointSettings {
  /** e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM); undefined means OpenAI. */
  baseURL: string | undefined
  model: string
  judgeModel: string
}

export type EndpointLookup = { ok: true; settings: EndpointSettings } | { ok: false; skipReason: string }

export function endpointFromEnvironment(env: NodeJS.ProcessEnv = process.env): EndpointLookup {
  const model = env.DIGLINE_EXAMPLE_MODEL?.trim()
  const baseURL = env.DIGLINE_EXAMPLE_BASE_URL?.trim() || undefined
  if (!model) {
    return {
      ok: false,
      skipReason: 'skipped: set DIGLINE_EXAMPLE_MODEL (with OPENAI_API_KEY for OpenAI, or DIGLINE_EXAMPLE_BASE_URL for a local server) to run against a real model',
    }
  }
  if (baseURL === undefined && !env.OPENAI_API_KEY) {
    return { ok: false, skipReason: 'skipped: set OPENAI_API_KEY to call OpenAI, or DIGLINE_EXAMPLE_BASE_URL for a server that needs no key' }
  }
  if (baseURL !== undefined && !URL.canParse(baseURL)) {
    return { ok: false, skipReason: `skipped: DIGLINE_EXAMPLE_BASE_URL (${JSON.stringify(baseURL)}) is not a URL, e.g. http://localhost:11434/v1` }
  }
  return { ok: true, settings: { baseURL, model, judgeModel: env.DIGLINE_EXAMPLE_JUDGE_MODEL?.trim() || model } }
}
