// The tools that only read the configured store: list_suites, list_runs, show_run, compare_run, pending, list_reviews.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { pendingRows } from '../host/index.js'
import { explainRun } from '../host/index.js'
import { resolveRunKey } from '../host/index.js'
import { liveSuiteSummaries } from '../host/index.js'
import { describeStore } from '../host/index.js'
import { reviewsOf } from '../host/index.js'
import { assertSafeSegment } from '../suite/assert-safe-segment.js'
import { project, type McpContext } from './context.js'
import { answer, guarded } from './tool-result.js'

const suiteArg = z.string().min(1).describe('the suite name (one safe path segment)')
const runArg = z.string().min(1).describe("the run's key, or latest")
const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false }

export function registerReadTools(server: McpServer, context: McpContext): void {
  server.registerTool(
    'list_suites',
    {
      title: 'List suites',
      description: "The tenant's suites that have runs: for each, how many readable runs, its latest run's key and its baseline's key.",
      inputSchema: {},
      outputSchema: {
        tenant: z.string(),
        store: z.string(),
        suites: z.array(z.looseObject({ suite: z.string(), runs: z.number(), latest: z.string().nullable(), baseline: z.string().nullable() })),
      },
      annotations: readOnly,
    },
    () =>
      guarded(async () => {
        const { settings, store } = await project(context)
        return answer({ tenant: settings.tenant, store: describeStore(settings.storeRoot), suites: await liveSuiteSummaries(store, settings.tenant) })
      }),
  )

  server.registerTool(
    'list_runs',
    {
      title: 'List runs',
      description: 'The runs of one suite, oldest first: each readable run with its header and aggregates, each unreadable one with the refusal that says why.',
      inputSchema: { suite: suiteArg },
      outputSchema: { tenant: z.string(), suite: z.string(), runs: z.array(z.looseObject({ key: z.string().nullable().optional() })) },
      annotations: readOnly,
    },
    ({ suite }) =>
      guarded(async () => {
        assertSafeSegment('suite', suite)
        const { settings, store } = await project(context)
        const listing = await store.listRuns(settings.tenant, suite)
        return answer({ tenant: listing.tenant, suite: listing.suite, runs: listing.runs.map((r) => ({ ...r, key: r.key ?? null })) })
      }),
  )

  server.registerTool(
    'show_run',
    {
      title: 'Show a run',
      description:
        'One written run document: header, aggregates and case results (the cases that did not pass, or all). Answers, inputs and expected values appear only when the run recorded them (recordResponses); a pending run is not shown here (see pending).',
      inputSchema: { suite: suiteArg, run: runArg, all: z.boolean().optional().describe('every case, not only those that did not pass') },
      outputSchema: { key: z.string(), answers_recorded: z.boolean(), run: z.looseObject({ suite: z.string(), results: z.array(z.unknown()) }) },
      annotations: readOnly,
    },
    ({ suite, run, all }) =>
      guarded(async () => {
        assertSafeSegment('suite', suite)
        if (run !== 'latest') assertSafeSegment('key', run)
        const { settings, store } = await project(context)
        const key = await resolveRunKey(store, settings.tenant, suite, run)
        const doc = await store.readRun(settings.tenant, suite, key)
        const results = all === true ? doc.results : doc.results.filter((r) => r.verdict !== 'pass')
        return answer({ key, answers_recorded: doc.record_responses, run: { ...doc, results } })
      }),
  )

  server.registerTool(
    'compare_run',
    {
      title: 'Compare a run with its baseline',
      description:
        "A run against its suite's committed baseline, explained case by case: the verdict and exit code `digline compare` gives, the paired difference with its 95% interval, each flipped case with its reason now and in the baseline, whether the target's declared config or observed model moved, each judge's agreement with the people's labels (Cohen's kappa with its 95% interval and the number of labels) and, when the suite asks its judges to be calibrated and the run fails only through one that is not, why it was not judged and how many labels are missing, and the `digline promote …` command a person would run when the run is promotable. It never promotes.",
      inputSchema: { suite: suiteArg, run: runArg },
      outputSchema: {
        suite: z.string(),
        key: z.string(),
        status: z.string(),
        exit_code: z.number(),
        flipped: z.array(z.looseObject({ case_id: z.string(), direction: z.enum(['pass_to_fail', 'fail_to_pass']) })),
        promotion: z.looseObject({ command: z.string().nullable() }),
        comparison: z.unknown(),
        outcome: z.unknown(),
        target_config_moved: z.unknown(),
        observed_model_moved: z.unknown(),
        judges: z.array(z.looseObject({ judge: z.string(), kappa: z.number().nullable(), labels: z.number(), words: z.string() })),
        not_judged: z.string().nullable(),
      },
      annotations: readOnly,
    },
    ({ suite, run }) =>
      guarded(async () => {
        const { settings, store } = await project(context)
        return answer({ ...(await explainRun(store, settings.tenant, suite, run)) })
      }),
  )

  server.registerTool(
    'pending',
    {
      title: 'Pending journals',
      description:
        'The journals of runs that stopped before they finished (of the tenant, or of one suite): key, legs, cases journaled and errored, and whether each can be resumed (resume_run).',
      inputSchema: { suite: suiteArg.optional() },
      outputSchema: { tenant: z.string(), pending: z.array(z.looseObject({ suite: z.string(), key: z.string() })) },
      annotations: readOnly,
    },
    ({ suite }) =>
      guarded(async () => {
        if (suite !== undefined) assertSafeSegment('suite', suite)
        const { settings, store } = await project(context)
        return answer({ tenant: settings.tenant, pending: await pendingRows(store, settings.tenant, suite) })
      }),
  )

  server.registerTool(
    'list_reviews',
    {
      title: 'List review labels',
      description:
        "The labels people made of a suite's cases in `digline view --review` (of the suite, or of one run), oldest first, as `digline review list --suite S --json` prints them: reviewer, run, case, the digest of the answers labelled, the verdict the person says is right, whether they agree with each scorer, and the note.",
      inputSchema: { suite: suiteArg, run: runArg.optional() },
      outputSchema: {
        tenant: z.string(),
        suite: z.string(),
        run: z.string().nullable(),
        reviews: z.array(z.looseObject({ review_id: z.string(), run: z.string(), case_id: z.string(), reviewer: z.string(), verdict: z.string() })),
      },
      annotations: readOnly,
    },
    ({ suite, run }) =>
      guarded(async () => {
        assertSafeSegment('suite', suite)
        if (run !== undefined && run !== 'latest') assertSafeSegment('key', run)
        const { settings, store } = await project(context)
        const reviews = await reviewsOf(store, settings.tenant, suite, run)
        return answer({ tenant: settings.tenant, suite, run: run ?? null, reviews: reviews.map((r) => ({ ...r })) })
      }),
  )
}
