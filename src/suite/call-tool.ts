// How a target of the team's own runs a tool so that a launch can record and replay it (SPEC §16):
// `await callTool(ctx, 'lookup_city', args, () => lookupCity(args))`. Outside a launch, or with tool
// replay off, the tool simply runs. The agent adapters of `digline/models` call it for every tool.
import type { TargetContext } from './types.js'

export interface CallToolOptions {
  /**
   * The tool's declared shape (its description and parameters, and a `version` to bump when its
   * code changes): a recording made under another shape is not served.
   */
  declared?: unknown
}

export async function callTool<R = unknown>(ctx: TargetContext, name: string, args: unknown, execute: () => R | Promise<R>, options: CallToolOptions = {}): Promise<R> {
  if (ctx.tools === undefined) return execute()
  return (await ctx.tools.call(name, args, execute, options.declared)) as R
}
