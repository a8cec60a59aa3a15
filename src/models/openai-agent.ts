// An agent behind an OpenAI-compatible /chat/completions endpoint: the chat loop with `tools` and
// `tool_calls`, through the official `openai` SDK. Each model call goes through the retries and the
// in-flight cap on its own (a slot per attempt, not one per answer), the tools the model asks for run
// in the order it asked, and the answer carries every step (SPEC §16).
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { ModelCallStep, TargetStep } from '../suite/steps.js'
import type { JsonObject, TargetAnswer, TargetContext, TargetObject } from '../suite/types.js'
import { declaredTools, maxStepsOf, runToolCall, type AgentTools } from './agent-tool.js'
import type { ChatMessage } from './chat-model.js'
import { messagesOf } from './chat-target.js'
import { callWithRetries } from './model-call.js'
import { invalid } from './model-options.js'
import { openaiConnection, type OpenAIChatOptions } from './openai-chat.js'

export interface OpenAIAgentOptions<I = unknown> extends Omit<OpenAIChatOptions, 'structuredOutput'> {
  tools: AgentTools
  /** At most this many model calls per answer (default 10); the last one's text is the output. */
  maxSteps?: number
  system?: string
  prompt?: (input: I, ctx: TargetContext) => string | ChatMessage[]
  config?: JsonObject
}

export function openaiAgent<I = unknown>(options: OpenAIAgentOptions<I>, env: NodeJS.ProcessEnv = process.env): TargetObject<I, string> {
  const owner = 'openaiAgent()'
  if (options === null || typeof options !== 'object') throw invalid(owner, 'options', 'must be { model, tools, baseURL?, … }')
  const { tools, maxSteps, system, prompt, config: extra, ...connection } = options
  const declared = declaredTools(tools, owner)
  const max = maxStepsOf(maxSteps, owner)
  if (system !== undefined && typeof system !== 'string') throw invalid(owner, 'system', 'must be a string')
  if (prompt !== undefined && typeof prompt !== 'function') throw invalid(owner, 'prompt', 'must be a function (input, ctx) => string | messages')
  const { model, config, samplingBody, extraBody, settings, load } = openaiConnection(connection, env, owner)
  const toolParams = declared.map(({ version: _version, ...t }) => ({ type: 'function' as const, function: t }))
  const declaredByName = new Map(declared.map((t) => [t.name as string, t]))
  return {
    config: { ...config, tools: declared, max_steps: max, ...(system === undefined ? {} : { system }), ...extra },
    async ask(input, ctx): Promise<TargetAnswer<string>> {
      const { client } = await load()
      const asked = prompt === undefined ? messagesOf(input) : prompt(input, ctx)
      const messages: ChatCompletionMessageParam[] = [
        ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
        ...(typeof asked === 'string' ? [{ role: 'user' as const, content: asked }] : asked.map((m) => ({ role: m.role, content: m.content }) as ChatCompletionMessageParam)),
      ]
      const steps: TargetStep[] = []
      let output: string
      let answered: string | undefined
      for (let n = 1; ; n++) {
        const body = { model, messages, tools: toolParams, ...samplingBody, ...extraBody } as unknown as ChatCompletionCreateParamsNonStreaming
        const started = performance.now()
        const completion = await callWithRetries(settings, ctx.signal, (signal) => client.chat.completions.create(body, { signal }))
        const step: ModelCallStep = { type: 'model', latency_ms: Math.round(performance.now() - started) }
        if (typeof completion.model === 'string' && completion.model !== '') answered = step.model = completion.model
        const usage = completion.usage
        if (usage && Number.isInteger(usage.prompt_tokens) && Number.isInteger(usage.completion_tokens))
          step.usage = { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens }
        steps.push(step)
        const message = completion.choices?.[0]?.message
        if (message === undefined) throw new Error(settings.redact(`${settings.owner} answered without choices[0].message`))
        output = message.content ?? message.refusal ?? ''
        const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function')
        if (calls.length === 0) break
        messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls })
        for (const call of calls) {
          const ran = await runToolCall(tools, call.function.name, call.function.arguments, ctx, declaredByName)
          steps.push(ran.step)
          messages.push({ role: 'tool', tool_call_id: call.id, content: ran.content })
        }
        if (n >= max) break
      }
      return { output, model: answered, steps }
    },
  }
}
