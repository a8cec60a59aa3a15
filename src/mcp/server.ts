// digline's MCP server: the eval loop for a coding agent (SPEC §13). Its tools read the configured
// store and launch Vitest through the host's use cases; none of them deletes, promotes, retires or
// re-judges into another suite: those stay commands a person runs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { DIGLINE_VERSION } from '../version.js'
import type { McpContext } from './context.js'
import { registerReadTools } from './read-tools.js'
import { registerRunTools } from './run-tools.js'
import { registerCompareRunsTool } from './compare-runs-tool.js'

export function createDiglineServer(context: McpContext): McpServer {
  const server = new McpServer(
    { name: 'digline', version: DIGLINE_VERSION },
    {
      instructions:
        'Evaluate the LLM application of this project with digline. Call plan_run to learn what a run costs, then run_suite with acknowledgedCalls equal to its calls; compare_run explains a regression case by case. There is no delete and no promote: propose the printed `digline promote …` command to a person.',
    },
  )
  registerReadTools(server, context)
  registerRunTools(server, context)
  registerCompareRunsTool(server, context)
  return server
}
