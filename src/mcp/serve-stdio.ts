// `digline mcp` on stdio: stdout carries the protocol, so everything else goes to stderr. When the
// client goes away (stdin ends), the runs under way are stopped as SIGTERM stops them, their journals
// stay resumable, and the server exits once they have settled.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { ProjectFlags } from '../host/index.js'
import { createDiglineServer } from './server.js'

export interface ServeOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  flags: ProjectFlags
  stderr: (text: string) => void
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
  const server = createDiglineServer({ cwd: options.cwd, env: options.env, flags: options.flags, log, stopping: stop.signal, track })
  const transport = new StdioServerTransport()
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
}
