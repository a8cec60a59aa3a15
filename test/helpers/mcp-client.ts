// The SDK's own Client, connected over stdio to `digline mcp` as a coding agent starts it: the
// installed bin, in a temp project, with the project's environment.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { installRoot, type Project } from './project.js'
import { installedBin } from './installed-package.js'

export interface Connected {
  client: Client
  transport: StdioClientTransport
  /** What the server wrote on stderr (vitest's output included). */
  stderr: () => string
  call(name: string, args: Record<string, unknown>, options?: { onprogress?: (p: { progress: number; total?: number; message?: string }) => void }): Promise<CallToolResult>
}

function userEnv(extra: Record<string, string>): Record<string, string> {
  const clean = Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(VITEST|TEST$|NODE_ENV$|DIGLINE_)/.test(k)) as [string, string][]
  return { ...Object.fromEntries(clean), NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...extra }
}

export async function connect(project: Project, args: string[] = [], env: Record<string, string> = {}, cwd = project.dir): Promise<Connected> {
  const bin = installedBin(installRoot())
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], cwd, env: userEnv(env), stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const client = new Client({ name: 'digline-test', version: '0.0.0' })
  await client.connect(transport)
  return {
    client,
    transport,
    stderr: () => stderr,
    call: async (name, args, options = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 600_000,
        ...(options.onprogress === undefined ? {} : { onprogress: options.onprogress }),
      })) as CallToolResult,
  }
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
}
