// evalSuite(): one Vitest test per case, plus one test that carries the suite's verdict.
// TestRunner's statics are the public runner API of Vitest 4.1 and 5 (`vitest/suite` is deprecated in 4.1 and gone in 5).
import { afterAll, beforeAll, describe, inject, test, TestRunner, type RunnerTestSuite } from 'vitest'
import { BudgetReachedError } from '../src/host/index.js'
import { InvalidOptionsError } from '../src/suite/errors.js'
import { reviveError } from '../src/errors/recognise.js'
import { resolveSuites } from '../src/suite/variants.js'
import { createdAtNow } from '../src/suite/keys.js'
import { sliceSuite, sliceTags } from '../src/suite/slice.js'
import type { ResolvedSuite, SuiteDefinition } from '../src/suite/types.js'
import type { CaseResult } from '../src/document/schema.js'
import { describeUncalibrated, PLANNED_NOTE, suiteLaunchFor, type RunContext, type SuiteOutcome } from '../src/host/index.js'
import { SuiteRun } from './suite-run.js'
import { registerWorker } from './stop-signal.js'
import { recordInManifest, recordRefusalInManifest } from './suite-manifest.js'
import { clearCaseHooks, registeredCaseHooks } from './case-hooks.js'
import { CaseErroredError, CaseFailedError, SuiteNotHeldError, describeMisses } from './test-errors.js'
import type { DiglineTaskMeta, ProvidedDigline } from './provided.js'
import { claimSuiteName, claimText, refusal as claimRefusal, type SuiteClaim } from './suite-name-claim.js'
import { caseTally, samplesLine, suiteAnnotations } from './case-annotations.js'
import { VARIANTS_TEST, variantsTest, type VariantBlock } from './variant-table.js'

/** The name of the test that closes every suite and carries its verdict. */
export const VERDICT_TEST = 'digline verdict'

function runContext(): RunContext & { claims?: string; ui?: boolean } {
  let provided: ProvidedDigline | undefined
  try {
    provided = inject('digline')
  } catch {
    provided = undefined
  }
  if (provided === undefined) {
    throw new InvalidOptionsError(
      'evalSuite() was called in a Vitest project without the digline() plugin',
      "Add digline({ tenant: '…' }) from 'digline/plugin' to the plugins of vitest.config.ts.",
    )
  }
  if (provided.refusal !== undefined) throw reviveError(provided.refusal)
  return {
    tenant: provided.tenant,
    environment: provided.environment,
    storeRoot: provided.storeRoot,
    projectRoot: provided.projectRoot,
    ...(provided.claims === undefined ? {} : { claims: provided.claims }),
    ...(provided.watch === true ? { watch: true } : {}),
    ...(provided.ui === true ? { ui: true } : {}),
  }
}

/** The case ids whose tests Vitest will run; undefined when every case runs. */
function selectedCases(task: Readonly<RunnerTestSuite>, caseIds: readonly string[]): ReadonlySet<string> | undefined {
  const ids = new Set(caseIds)
  const selected = new Set(task.tasks.filter((t) => t.type === 'test' && ids.has(t.name) && t.mode === 'run').map((t) => t.name))
  const verdictRuns = task.tasks.some((t) => t.name === VERDICT_TEST && t.mode === 'run')
  return selected.size === ids.size && verdictRuns ? undefined : selected
}

/** One declared suite (or one variant of it) in this file: its launch, and its run once started. */
interface SuiteBlock extends VariantBlock {
  claim: SuiteClaim | undefined
  caseIds: string[]
  /** A shard runs its share of the cases; the others' tests are shown as skipped. */
  mine: ReadonlySet<string> | undefined
  /** A filter (-t, a file filter) leaves the verdict test out: the last selected case carries the outcome. */
  carriesOutcome?: string
}

type FileContext = RunContext & { suiteFile?: string }

export function evalSuite<I, O, E>(definition: SuiteDefinition<I, O, E>): void {
  const { claims, ui, ...ctx } = runContext()
  const file = TestRunner.getCurrentSuite()?.file?.filepath
  let suites: ResolvedSuite[]
  try {
    // A launch by tag (digline run --tag T) runs the suite's slice: its cases that carry the tag.
    suites = resolveSuites(definition).map((s) => sliceSuite(s, sliceTags()))
  } catch (error) {
    recordRefusalInManifest(file)
    throw error
  }
  // The code the target runs starts at this file (the cache key covers it, ADR 0150).
  const withFile: FileContext = file === undefined ? ctx : { ...ctx, suiteFile: file }
  // The variants of one launch share its created_at, and so its key (ADR 0300).
  const fileCtx: FileContext =
    suites[0]!.variant === undefined || (process.env.DIGLINE_CREATED_AT ?? '') !== '' ? withFile : { ...withFile, env: { ...process.env, DIGLINE_CREATED_AT: createdAtNow() } }
  const blocks = suites.map((suite): SuiteBlock => {
    // Refused at collection, before any call, when another file of this launch declares the same suite.
    const claim = claims === undefined || file === undefined ? undefined : claimSuiteName(claims, ctx.tenant, suite.name, file, ctx.projectRoot, suite.variant)
    recordInManifest(suite, ctx, file)
    const caseIds = suite.cases.map((c) => c.id)
    const launch = suiteLaunchFor(suite.name, caseIds)
    const mine = launch.kind === 'fresh' || launch.kind === 'resume' ? launch.share : undefined
    return { suite, launch, claim, caseIds, mine }
  })
  const hooks = registeredCaseHooks()
  // A hook registered by a test file itself is not handed to the next file a shared worker runs
  // (isolate: false): with no hook files the plugin has no setup file to clear the list (ADR 0567).
  afterAll(clearCaseHooks)
  const start = (block: SuiteBlock, task: Readonly<RunnerTestSuite>): Promise<SuiteRun> => {
    // The file that claimed the name first also stands down if the other one was seen before its first call.
    const other = block.claim?.contested()
    if (other !== undefined) throw claimRefusal(block.suite.name, ctx.tenant, ctx.projectRoot, claimText(file!, block.suite.variant), other)
    const only = selectedCases(task, block.mine === undefined ? block.caseIds : [...block.mine])
    block.carriesOutcome = only === undefined ? undefined : block.caseIds.filter((id) => only.has(id)).at(-1)
    if (claims !== undefined) registerWorker(claims)
    block.run = SuiteRun.start(block.suite, block.launch, { ctx: fileCtx, only, hooks })
    return block.run
  }

  const variant = blocks[0]!.suite.variant
  if (variant === undefined) {
    const block = blocks[0]!
    // A launch that names other suites (a resume, a rejudge, a merge, --suite) shows this one as skipped.
    ;(block.launch.kind === 'skip' ? describe.skip : describe)(block.suite.name, () => {
      // Vitest passes hook fixtures first and the suite task second.
      // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a hook asks for from its first parameter's pattern
      beforeAll(({}, task) => start(block, task as RunnerTestSuite).then(() => undefined))
      declareTests(block, ui === true)
    })
    return
  }
  // The variants start together, so each has its journal before the first call, and run side by side
  // under one cap on the target calls in flight (ADR 0302); a variant the launch leaves out is skipped.
  const running = blocks.filter((b) => b.launch.kind !== 'skip')
  ;(running.length === 0 ? describe.skip : describe)(variant.suite, () => {
    // eslint-disable-next-line no-empty-pattern -- Vitest reads the fixtures a hook asks for from its first parameter's pattern
    beforeAll(({}, task) => {
      const children = (task as RunnerTestSuite).tasks
      const started = running.map((block) =>
        start(
          block,
          children.find((t): t is RunnerTestSuite => t.type === 'suite' && t.name === block.suite.name)!,
        ),
      )
      return Promise.all(started).then(() => undefined)
    })
    for (const block of blocks) (block.launch.kind === 'skip' ? describe.skip : describe)(block.suite.name, () => declareTests(block, ui === true))
    test(VARIANTS_TEST, (context) => variantsTest(context, variant.suite, blocks, fileCtx), blocks[0]!.suite.timeout)
  })
}

/** One test per case and the test that carries the suite's verdict; under `vitest --ui` a failing case's test is red too (ADR 0385). */
function declareTests(block: SuiteBlock, ui: boolean): void {
  const { suite, mine } = block
  for (const c of suite.cases) {
    ;(mine === undefined || mine.has(c.id) ? test : test.skip)(
      c.id,
      async ({ task, skip, signal }) => {
        const started = await block.run!
        started.stopWith(signal)
        const leftOut = started.leftOutNote(c.id)
        if (leftOut !== undefined) skip(leftOut)
        let result: CaseResult
        try {
          result = await started.caseResult(c.id)
        } catch (error) {
          // The suite's verdict test reports the budget once; a case it left unjudged is skipped, not failed.
          if (error instanceof BudgetReachedError) skip(`not judged: the run stopped at its budget; next: ${error.next}`)
          throw error
        }
        // The main process words the annotations from the line and the tally (plugin/annotation-filer.ts).
        const meta: DiglineTaskMeta = {
          kind: 'case',
          suite: suite.name,
          case: { case_id: c.id, verdict: result.verdict, score: result.score, reason: result.error?.message ?? result.reason },
          tally: caseTally(result),
        }
        if (c.id === block.carriesOutcome) meta.outcome = await started.outcome
        task.meta.digline = meta
        if (result.verdict === 'error') throw new CaseErroredError(suite.name, c.id, result.error!.cause, result.error!.message)
        if (result.verdict === 'fail' && ui) throw new CaseFailedError(suite.name, c.id, samplesLine(meta.tally!), result.reason)
      },
      suite.timeout,
    )
  }

  test(
    VERDICT_TEST,
    async ({ task, signal, skip }) => {
      const started = await block.run!
      if (started.planned) skip(PLANNED_NOTE)
      started.stopWith(signal)
      const outcome: SuiteOutcome = await started.outcome
      task.meta.digline = { kind: 'suite', outcome, annotations: suiteAnnotations(outcome) }
      if (outcome.status === 'errored') throw new SuiteNotHeldError(`${outcome.aggregates.errored} case(s) errored, so suite ${suite.name} could not be judged (exit 2)`)
      if (outcome.status === 'baseline-unreadable')
        throw new SuiteNotHeldError(`suite ${suite.name} could not be judged against its baseline: ${outcome.comparison?.warnings.join('; ') ?? 'the baseline cannot be read'}`)
      if (outcome.status === 'uncalibrated') throw new SuiteNotHeldError(`suite ${suite.name} was not judged: ${describeUncalibrated(outcome)}`)
      if (outcome.status === 'regressed') throw new SuiteNotHeldError(`suite ${suite.name} regressed against its baseline: ${outcome.comparison?.reasons.join('; ') ?? ''}`)
      if (outcome.status === 'missed') throw new SuiteNotHeldError(`suite ${suite.name} missed its thresholds: ${describeMisses(outcome.misses)}`)
    },
    suite.timeout,
  )
}
