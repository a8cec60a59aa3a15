// `digline mcp` on stdio: stdout carries the protocol, so everything else goes to stderr. When the
// client goes away (stdin ends), the runs under way are stopped as SIGTERM stops them, their journals
// stay resumable, the one store the server held is closed, and the server exits once they have settled.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { openProjectSession, type ProjectFlags } from '../host/index.js'
import { createDiglineServer } from './server.js'

export interface ServeOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  flags: ProjectFlags
  stderr: (text: string) => void
}

/** The SDK's stdio transport drops the connection when one message grows past its buffer (10 MiB by default). */
const OVERSIZED = /ReadBuffer exceeded maximum size of (\d+) bytes/

/** Why the transport failed, in words a person reading the client's server log can act on. */
export function transportTrouble(error: Error): string {
  const over = OVERSIZED.exec(error.message)
  if (over !== null)
    return `digline mcp: a message from the client was larger than the ${over[1]} bytes the MCP SDK's stdio transport takes for one message, so the SDK closed the connection and the server stops (runs under way are stopped; their journals stay resumable). Send smaller arguments.`
  return `digline mcp: the MCP transport reported: ${error.message}`
}

/** Resolves when the client has gone and every run it started has stopped. */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const stop = new AbortController()
  const log = (text: string) => options.stderr(text.endsWith('\n') ? text.slice(0, -1) : text)
  const running = new Set<Promise<unknown>>()
  const track = (run: Promise<unknown>) => {
    const settled = run.then(
      () => undefined,
      () => undefined,
    )
    running.add(settled)
    void settled.then(() => running.delete(settled))
  }
  const session = openProjectSession(options.cwd, options.flags, options.env)
  const server = createDiglineServer({ cwd: options.cwd, env: options.env, flags: options.flags, session, log, stopping: stop.signal, track })
  const transport = new StdioServerTransport()
  // The SDK reports a failed message here, and then (for one over its size limit) closes: never silently.
  transport.onerror = (error) => log(transportTrouble(error))
  const gone = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve)
    process.stdin.once('close', resolve)
    transport.onclose = () => resolve()
  })
  await server.connect(transport)
  await gone
  // The answer of a run the client left behind has nowhere to go: a closed pipe is not a crash.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
  stop.abort(new Error('the MCP client went away'))
  await Promise.all([...running])
  await server.close().catch(() => undefined)
  await session.close()
}
