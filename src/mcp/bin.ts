#!/usr/bin/env node
// The MCP front end's own process: `digline mcp` hands it stdin and stdout (src/cli/commands/mcp.ts).
// argv: the project options as the CLI parsed them, one JSON document.
import { serveStdio } from './serve-stdio.js'
import type { ProjectFlags } from '../host/index.js'

const flags = JSON.parse(process.argv[2] ?? '{}') as ProjectFlags
await serveStdio({ cwd: process.cwd(), env: process.env, flags, stderr: (text) => process.stderr.write(`${text}\n`) })
