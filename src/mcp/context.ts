// What every tool of the server shares: the project it was started in, read as the CLI reads it.
import type { OpenedProject, ProjectFlags, ProjectSession } from '../host/index.js'

export interface McpContext {
  cwd: string
  env: NodeJS.ProcessEnv
  flags: ProjectFlags
  /** The server's one open store; the settings are read again at every call (the config may change). */
  session: ProjectSession
  /** Where vitest's output and the server's own notes go: never stdout, which carries the protocol. */
  log: (text: string) => void
  /** Stops the runs under way when the client goes away. */
  stopping: AbortSignal
  /** Holds the server open until a run it started has settled (its journal durable, vitest gone). */
  track: (run: Promise<unknown>) => void
}

/** The project as it is configured now, with the store the server keeps open for it (closed when the server ends). */
export function project(context: McpContext): Promise<OpenedProject> {
  return context.session.project()
}
