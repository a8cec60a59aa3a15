// An agent on the AI SDK: `generateText` with tools and several steps (`stopWhen: stepCountIs(n)`).
// The model is wrapped so that each of its calls goes through digline's retries and the in-flight cap
// on its own (a slot per attempt, not one for the whole loop), and the SDK's steps become the
// answer's steps, timed (SPEC §16). `aiSdkSteps` turns a result of the team's own generateText into
// steps too.
import type { ModelCallStep, TargetStep, TargetToolStep } from '../suite/steps.js'
import type { JsonObject, TargetAnswer, TargetContext, TargetObject } from '../suite/types.js'
import { aiSdkCallSettings, classifyAiError, identify, tokens, type AiSdkLanguageModel } from './ai-sdk-chat.js'
import { maxStepsOf } from './agent-tool.js'
import type { ChatMessage } from './chat-model.js'
import { messagesOf } from './chat-target.js'
import { callWithRetries } from './model-call.js'
import { callOptions, invalid, samplingConfig, type CallOptions, type SamplingOptions } from './model-options.js'
import { requirePeer } from './peer.js'
import { callTool } from '../suite/call-tool.js'
import { UnrecordedToolCallError } from '../suite/tool-replay.js'

/** An AI SDK tool as `tool({ description, inputSchema, execute })` makes it; written out so this entry's types do not need `ai`. */
export interface AiSdkTool {
  description?: string
  /** Name a new version when the tool's code changes (`Object.assign(tool({ … }), { version: '2' })`): declared config, and tool replay serves no recording of another version. */
  version?: string
  execute?(input: unknown, options: { toolCallId: string }): unknown
  [k: string]: unknown
}

export interface AiSdkAgentOptions<I = unknown> extends SamplingOptions, CallOptions {
  tools: Readonly<Record<string, AiSdkTool>>
  /** At most this many steps (model calls) per answer (default 10): `stopWhen: stepCountIs(maxSteps)`. */
  maxSteps?: number
  system?: string
  prompt?: (input: I, ctx: TargetContext) => string | ChatMessage[]
  /** More declared config: a tool's input schema is not recorded, so name its version here. */
  config?: JsonObject
}

/** What aiSdkSteps reads of one step of a generateText result. */
export interface AiSdkStepLike {
  response?: { modelId?: string }
  usage?: { inputTokens?: number | undefined; outputTokens?: number | undefined }
  content: readonly { type: string; toolCallId?: string; toolName?: string; input?: unknown; output?: unknown; error?: unknown }[]
}

type AiModule = typeof import('ai')

export function aiSdkAgent<I = unknown>(model: AiSdkLanguageModel, options: AiSdkAgentOptions<I>): TargetObject<I, string> {
  const owner = 'aiSdkAgent()'
  const { provider, modelId } = identify(model, owner)
  if (typeof model === 'string')
    throw invalid(owner, 'model', 'must be an AI SDK language model object (e.g. createOpenAI({ … }).chat("gpt-4o-mini")), so that each of its calls is capped and counted')
  if (options === null || typeof options !== 'object') throw invalid(owner, 'options', 'must be { tools, maxSteps?, … }')
  const { tools, maxSteps, system, prompt, config: extra } = options
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) throw invalid(owner, 'tools', 'must be an object of AI SDK tools by name, e.g. { weather: tool({ … }) }')
  const max = maxStepsOf(maxSteps, owner)
  const calls = callOptions(options, owner)
  const sampling = samplingConfig(options, owner)
  if (system !== undefined && typeof system !== 'string') throw invalid(owner, 'system', 'must be a string')
  requirePeer('ai', owner)
  const declared = Object.keys(tools)
    .sort()
    .map((name) => {
      const version = tools[name]?.version
      if (version !== undefined && (typeof version !== 'string' || version === '')) throw invalid(owner, `tools.${name}.version`, 'must be a non-empty string')
      return {
        name,
        ...(typeof tools[name]?.description === 'string' ? { description: tools[name].description } : {}),
        ...(version === undefined ? {} : { version }),
      }
    })
  const declaredByName = new Map(declared.map((t) => [t.name, t]))
  const settings = aiSdkCallSettings(provider, modelId, options.pool, calls)
  let loaded: Promise<AiModule> | undefined

  return {
    config: { provider, model: modelId, ...sampling, tools: declared, max_steps: max, ...(system === undefined ? {} : { system }), ...extra },
    async ask(input, ctx): Promise<TargetAnswer<string>> {
      const ai = await (loaded ??= import('ai'))
      const latencies: number[] = []
      // A call strict tool replay refuses stops the loop: the SDK would otherwise hand the model the error and go on.
      const refused = new AbortController()
      const stop = AbortSignal.any([ctx.signal, refused.signal])
      const wrapped = ai.wrapLanguageModel({
        model: model as Parameters<AiModule['wrapLanguageModel']>[0]['model'],
        middleware: {
          specificationVersion: 'v3',
          wrapGenerate: async ({ params, model: inner }) => {
            const started = performance.now()
            const result = await callWithRetries({ ...settings, classify: (error) => classifyAiError(ai, error) }, stop, (signal) =>
              Promise.resolve(inner.doGenerate({ ...params, abortSignal: signal })),
            )
            latencies.push(Math.round(performance.now() - started))
            return result
          },
        },
      })
      const toolMs = new Map<string, number>()
      const timed: Record<string, AiSdkTool> = {}
      for (const [name, tool] of Object.entries(tools)) {
        const execute = tool.execute?.bind(tool)
        timed[name] =
          execute === undefined
            ? tool
            : {
                ...tool,
                execute: async (args: unknown, opts: { toolCallId: string }) => {
                  const started = performance.now()
                  try {
                    return await callTool(ctx, name, args, () => execute(args, opts), { declared: declaredByName.get(name) })
                  } catch (error) {
                    if (error instanceof UnrecordedToolCallError) refused.abort(error)
                    throw error
                  } finally {
                    toolMs.set(opts.toolCallId, Math.round(performance.now() - started))
                  }
                },
              }
      }
      const asked = prompt === undefined ? messagesOf(input) : prompt(input, ctx)
      const messages = typeof asked === 'string' ? [{ role: 'user' as const, content: asked }] : asked.filter((m) => m.role !== 'system')
      const systems = [...(system === undefined ? [] : [system]), ...(typeof asked === 'string' ? [] : asked.filter((m) => m.role === 'system').map((m) => m.content))]
      const result = await ai
        .generateText({
          model: wrapped,
          tools: timed as Parameters<AiModule['generateText']>[0]['tools'],
          stopWhen: ai.stepCountIs(max),
          ...(systems.length > 0 ? { system: systems.join('\n\n') } : {}),
          messages: messages as { role: 'user' | 'assistant'; content: string }[],
          temperature: options.temperature,
          topP: options.topP,
          maxOutputTokens: options.maxTokens,
          seed: options.seed,
          stopSequences: options.stop,
          maxRetries: 0,
          abortSignal: stop,
        })
        .catch((error: unknown) => {
          throw refused.signal.aborted ? refused.signal.reason : error
        })
      const steps = aiSdkSteps(result, { modelLatencies: latencies, toolLatencies: toolMs })
      const last = [...steps].reverse().find((s): s is ModelCallStep => s.type === 'model')
      return { output: result.text, model: last?.model, steps }
    },
  }
}

/**
 * The steps of an AI SDK generateText result, as an answer carries them: for each of its steps a
 * model call (model id, usage), then the tool calls it asked for with their results or errors.
 * Return them as `steps` from a target that runs its own generateText.
 */
export function aiSdkSteps(
  result: { steps: readonly AiSdkStepLike[] },
  timing: { modelLatencies?: readonly number[]; toolLatencies?: ReadonlyMap<string, number> } = {},
): TargetStep[] {
  const out: TargetStep[] = []
  result.steps.forEach((step, i) => {
    const call: ModelCallStep = { type: 'model' }
    const id = step.response?.modelId
    if (typeof id === 'string' && id !== '') call.model = id
    const usage = tokens(step.usage)
    if (usage !== undefined) call.usage = usage
    const ms = timing.modelLatencies?.[i]
    if (ms !== undefined) call.latency_ms = ms
    out.push(call)
    for (const part of step.content) {
      if (part.type !== 'tool-call' || typeof part.toolName !== 'string') continue
      const tool: TargetToolStep = { type: 'tool', name: part.toolName, arguments: part.input }
      const ended = step.content.find((p) => (p.type === 'tool-result' || p.type === 'tool-error') && p.toolCallId === part.toolCallId)
      if (ended?.type === 'tool-result') tool.result = ended.output
      else if (ended?.type === 'tool-error') tool.error = ended.error instanceof Error ? ended.error.message : String(ended.error)
      const toolMs = part.toolCallId === undefined ? undefined : timing.toolLatencies?.get(part.toolCallId)
      if (toolMs !== undefined) tool.latency_ms = toolMs
      out.push(tool)
    }
  })
  return out
}
