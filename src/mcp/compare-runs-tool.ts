// compare_runs: one run of a suite against another (SPEC §15), read-only, as `digline compare --against` gives it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { compareRunAgainst } from '../host/index.js'
import { project, type McpContext } from './context.js'
import { answer, guarded } from './tool-result.js'

export function registerCompareRunsTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'compare_runs',
    {
      title: 'Compare two runs of a suite',
      description:
        "Run A of a suite against run B of the same suite, with B in the baseline's place: the verdict and exit code `digline compare --suite S --run A --against B` gives, the paired difference over the shared cases with its 95% interval, how many cases are only in A or only in B, what changed between the two runs (target config keys, observed model, artifacts, dataset files), and each flipped case with its reason in both. It changes nothing.",
      inputSchema: {
        suite: z.string().min(1).describe('the suite name (one safe path segment)'),
        run: z.string().min(1).describe('run A: its key, or latest'),
        against: z.string().min(1).describe('run B: its key, or latest'),
      },
      outputSchema: {
        suite: z.string(),
        key: z.string(),
        against: z.string(),
        status: z.string(),
        exit_code: z.number(),
        cases: z.object({ shared: z.number(), errored_either: z.number(), only_in_run: z.number(), only_in_against: z.number(), same: z.boolean() }),
        flipped: z.array(z.looseObject({ case_id: z.string(), direction: z.enum(['pass_to_fail', 'fail_to_pass']) })),
        outcome: z.unknown(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    ({ suite, run, against }) =>
      guarded(async () => {
        const { settings, store } = await project(context)
        return answer({ ...(await compareRunAgainst(store, settings.tenant, suite, run, against)) })
      }),
  )
}
