// A tool an agent adapter may call (SPEC §16): its declared shape (description, JSON Schema of its
// arguments), which is part of the target config, and the function that runs it. Each call is timed
// and becomes a step of the answer; a tool that throws is reported to the model as an error, as the
// AI SDK does, and the loop goes on.
import type { JsonObject, TargetContext } from '../suite/types.js'
import type { TargetToolStep } from '../suite/steps.js'
import { invalid } from './model-options.js'
import { callTool } from '../suite/call-tool.js'
import { UnrecordedToolCallError } from '../suite/tool-replay.js'

export interface AgentTool<A = unknown> {
  description?: string
  /** The JSON Schema of the arguments, as the model is shown it. */
  parameters: JsonObject
  /** Name a new version when the tool's code changes: it is declared config, and tool replay serves no recording of another version. */
  version?: string
  execute(args: A, ctx: TargetContext): unknown
}

export type AgentTools = Readonly<Record<string, AgentTool>>

/** The tools as the target config declares them: name, description and parameters, by name. */
export function declaredTools(tools: AgentTools, owner: string): JsonObject[] {
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) throw invalid(owner, 'tools', 'must be an object of { description?, parameters, execute } by tool name')
  return Object.keys(tools)
    .sort()
    .map((name) => {
      const tool = tools[name]!
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw invalid(owner, `tools.${name}`, 'is not a tool name: 1 to 64 letters, digits, _ or -')
      if (tool === null || typeof tool !== 'object' || typeof tool.execute !== 'function')
        throw invalid(owner, `tools.${name}`, 'must be { description?, parameters, execute(args, ctx) }')
      if (tool.parameters === null || typeof tool.parameters !== 'object' || Array.isArray(tool.parameters))
        throw invalid(owner, `tools.${name}.parameters`, 'must be a JSON Schema object')
      if (tool.version !== undefined && (typeof tool.version !== 'string' || tool.version === '')) throw invalid(owner, `tools.${name}.version`, 'must be a non-empty string')
      return {
        name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.parameters,
        ...(tool.version === undefined ? {} : { version: tool.version }),
      }
    })
}

export function maxStepsOf(value: number | undefined, owner: string): number {
  const max = value ?? 10
  if (!Number.isInteger(max) || max < 1 || max > 1000) throw invalid(owner, 'maxSteps', 'must be an integer from 1 to 1000 (model calls per answer)')
  return max
}

/**
 * Runs one call the model asked for, through the launch's tool replay (ctx.tools); the step it
 * becomes, and the text the model is sent back. A call strict replay refuses ends the answer.
 */
export async function runToolCall(
  tools: AgentTools,
  name: string,
  rawArgs: string,
  ctx: TargetContext,
  declared?: ReadonlyMap<string, JsonObject>,
): Promise<{ step: TargetToolStep; content: string }> {
  const started = performance.now()
  const step: TargetToolStep = { type: 'tool', name }
  const fail = (message: string) => {
    step.error = message
    step.latency_ms = Math.round(performance.now() - started)
    return { step, content: JSON.stringify({ error: message }) }
  }
  let args: unknown
  try {
    args = rawArgs.trim() === '' ? {} : (JSON.parse(rawArgs) as unknown)
  } catch {
    step.arguments = rawArgs
    return fail('the arguments are not JSON')
  }
  step.arguments = args
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined
  if (tool === undefined) return fail(`no tool named ${JSON.stringify(name)}`)
  let result: unknown
  try {
    result = await callTool(ctx, name, args, () => tool.execute(args, ctx), { declared: declared?.get(name) })
  } catch (error) {
    ctx.signal.throwIfAborted()
    if (error instanceof UnrecordedToolCallError) throw error
    return fail(error instanceof Error ? error.message : String(error))
  }
  step.result = result
  step.latency_ms = Math.round(performance.now() - started)
  return { step, content: typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null') }
}
