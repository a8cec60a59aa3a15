// What every tool of the server shares: the project it was started in, read as the CLI reads it.
import { openProject, type OpenedProject } from '../host/index.js'
import type { ProjectFlags } from '../host/index.js'

export interface McpContext {
  cwd: string
  env: NodeJS.ProcessEnv
  flags: ProjectFlags
  /** Where vitest's output and the server's own notes go: never stdout, which carries the protocol. */
  log: (text: string) => void
  /** Stops the runs under way when the client goes away. */
  stopping: AbortSignal
  /** Holds the server open until a run it started has settled (its journal durable, vitest gone). */
  track: (run: Promise<unknown>) => void
}

/** The configured store, opened afresh for each tool call (the config may have changed between calls). */
export function project(context: McpContext): Promise<OpenedProject> {
  return openProject(context.cwd, context.flags, context.env)
}
