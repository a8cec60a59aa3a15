// The tools that launch Vitest: plan_run announces the bill and calls nothing; run_suite and
// resume_run run only when acknowledgedCalls is exactly the bill a fresh plan announces, and stream
// progress notifications as cases settle.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { z } from 'zod'
import { formatVariantTable, UsageError } from '../host/index.js'
import { EXIT_CODES } from '../exit-codes.js'
import {
  billLaunch,
  datedLaunch,
  planLaunch,
  PlannedDates,
  runAcknowledged,
  type LaunchBill,
  type LaunchProject,
  type LaunchRequest,
  type LaunchResult,
  type RunOptions,
  type VitestPlace,
} from '../host/index.js'
import { project, type McpContext } from './context.js'
import { answer, guarded } from './tool-result.js'

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

const suiteArg = z.string().min(1).describe('the suite name (one safe path segment)')
const keyArg = z.string().min(1).describe('the key of the pending run to resume; without it, the newest pending run of each suite')
const keepErrorsArg = z.boolean().optional().describe('on a resume: keep the cases that errored instead of calling them again')
const acknowledgedArg = z.number().int().nonnegative().describe('the exact number of calls to the target plan_run announced for this launch')

const billSchema = {
  calls: z.number(),
  suites: z.array(z.looseObject({ suite: z.string(), key: z.string(), announcement: z.string() })),
  passedOver: z.array(z.looseObject({ suite: z.string(), key: z.string() })),
}

function launchProject(context: McpContext): LaunchProject & VitestPlace {
  if (context.flags.tenant !== undefined || context.flags.store !== undefined) {
    // The workers write where the digline() options say, as `digline run` does.
    throw new UsageError(
      'digline mcp: plan_run, run_suite and resume_run are not taken when the server was started with --tenant or --store',
      'Set tenant and store in the digline() plugin options of the Vitest config and start `digline mcp` without --tenant and --store.',
      [context.flags.tenant !== undefined ? '--tenant' : '--store'],
    )
  }
  return {
    cwd: context.cwd,
    env: context.env,
    config: context.flags.config,
    output: context.log,
    async open() {
      const { settings, store } = await project(context)
      return { tenant: settings.tenant, storeRoot: settings.storeRoot, store }
    },
  }
}

/** The launch the tools plan and run: the files that declare digline suites only, so no other test of the project runs. */
async function planned(context: McpContext, request: Extract<LaunchRequest, { kind: 'fresh' | 'resume' }>) {
  const place = launchProject(context)
  return { place, launch: await planLaunch(place, { ...request, suitesOnly: true }) }
}

function bill(plan: LaunchBill): Record<string, unknown> {
  return { calls: plan.calls, suites: plan.suites, passedOver: plan.passedOver }
}

function resultOf(result: LaunchResult): CallToolResult {
  const next =
    result.exitCode === 2 && result.outcomes.length < result.plan.suites.length
      ? 'A suite did not finish: call pending, then plan_run with resume true and resume_run to finish it.'
      : result.outcomes.some((o) => o.status === 'regressed' || o.status === 'missed')
        ? 'Call compare_run with the suite and key of each suite that did not hold to see which cases flipped and why.'
        : null
  return answer({
    exit_code: result.exitCode,
    meaning: EXIT_CODES[result.exitCode].meaning,
    bill: bill(result.plan),
    outcomes: result.outcomes.map((o) => ({
      suite: o.suite,
      key: o.key,
      status: o.status,
      aggregates: o.aggregates,
      misses: o.misses,
      not_passed: o.notPassed,
      regression: o.comparison?.reasons ?? [],
      warnings: o.comparison?.warnings ?? [],
    })),
    problems: result.problems.map((p) => ({ error: p.name, message: p.message })),
    // each suite with variants: per variant its pass rate, mean score, cost, tokens and latency, and every pair's verdict
    variants: result.variants.map((table) => ({ ...table, text: formatVariantTable(table) })),
    next,
  })
}

/**
 * Progress notifications, when the client asked for them with a progressToken. The SDK's client
 * handles a notification a tick after it reads it, and the result at once: a notification read in
 * the same chunk as the result is dropped. So the result waits a moment after the last one.
 */
function progressSender(extra: Extra): { onProgress: RunOptions['onProgress']; flushed: () => Promise<void> } {
  const token = extra._meta?.progressToken
  if (token === undefined) return { onProgress: undefined, flushed: async () => undefined }
  let last = 0
  return {
    onProgress: async ({ line, settled, total }) => {
      const message = `${line.suite} › ${line.case_id}: ${line.verdict}${line.earlier ? ' (judged in an earlier leg)' : ''}`
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: settled, total, message } }).catch(() => undefined)
      last = Date.now()
    },
    flushed: async () => {
      const wait = last + NOTIFICATION_GAP_MS - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    },
  }
}

const NOTIFICATION_GAP_MS = 100

async function run(
  context: McpContext,
  request: Extract<LaunchRequest, { kind: 'fresh' | 'resume' }>,
  acknowledgedCalls: number,
  extra: Extra,
  createdAt?: string,
): Promise<CallToolResult> {
  const { onProgress, flushed } = progressSender(extra)
  const running = planned(context, request).then(({ place, launch }) =>
    runAcknowledged(place, datedLaunch(launch, createdAt), {
      acknowledgedCalls,
      signal: AbortSignal.any([extra.signal, context.stopping]),
      ...(onProgress === undefined ? {} : { onProgress }),
    }),
  )
  context.track(running)
  const result = await running
  await flushed()
  return resultOf(result)
}

export function registerRunTools(server: McpServer, context: McpContext): void {
  // The keys a fresh plan names are the keys run_suite files under when it acknowledges that plan.
  const dates = new PlannedDates()
  server.registerTool(
    'plan_run',
    {
      title: 'Plan a run',
      description:
        "The bill a run would announce, without calling the target: for each suite, cases × samples = calls, the cases already judged and those retried. Plans a fresh run of every suite (or of one suite), or with resume true the resume of a pending run. Pass its calls as acknowledgedCalls to run_suite or resume_run; each suite's key is the key the run acknowledged with this plan files under.",
      inputSchema: {
        suite: suiteArg.optional(),
        resume: z.boolean().optional().describe('plan the resume of a pending run instead of a fresh run'),
        key: keyArg.optional(),
        keepErrors: keepErrorsArg,
      },
      outputSchema: billSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    ({ suite, resume, key, keepErrors }) =>
      guarded(async () => {
        if (resume !== true && (key !== undefined || keepErrors !== undefined))
          throw new UsageError('digline mcp: plan_run takes key and keepErrors only with resume true', 'Call plan_run with resume true, or without key and keepErrors.', ['resume'])
        const request: Extract<LaunchRequest, { kind: 'fresh' | 'resume' }> =
          resume === true ? { kind: 'resume', key, suite, keepErrors: keepErrors === true } : { kind: 'fresh', suite }
        const { place, launch } = await planned(context, request)
        const createdAt = request.kind === 'fresh' ? dates.dateOfPlan(context.env) : undefined
        const planBill = await billLaunch(place, datedLaunch(launch, createdAt))
        if (createdAt !== undefined) dates.remember(createdAt, suite, planBill)
        return answer(bill(planBill))
      }),
  )

  server.registerTool(
    'run_suite',
    {
      title: 'Run suites',
      description:
        'Runs every suite of the project (or one suite) with Vitest, calling the target, and returns each outcome and the exit code. Runs only when acknowledgedCalls is exactly the number of calls a fresh plan announces (call plan_run first); otherwise it is refused and nothing is called. Sends a progress notification per settled case when the request carries a progressToken.',
      inputSchema: { suite: suiteArg.optional(), acknowledgedCalls: acknowledgedArg },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    ({ suite, acknowledgedCalls }, extra) => guarded(() => run(context, { kind: 'fresh', suite }, acknowledgedCalls, extra, dates.take(suite, acknowledgedCalls))),
  )

  server.registerTool(
    'resume_run',
    {
      title: 'Resume a run',
      description:
        'Finishes a pending run from its journal (the run key, or the newest pending run of each suite): the cases already judged are not called again. Runs only when acknowledgedCalls is exactly the number of calls a fresh plan of the resume announces (plan_run with resume true); otherwise it is refused and nothing is called.',
      inputSchema: { key: keyArg.optional(), suite: suiteArg.optional(), keepErrors: keepErrorsArg, acknowledgedCalls: acknowledgedArg },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    ({ key, suite, keepErrors, acknowledgedCalls }, extra) =>
      guarded(() => run(context, { kind: 'resume', key, suite, keepErrors: keepErrors === true }, acknowledgedCalls, extra)),
  )
}
