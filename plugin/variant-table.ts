// The test that closes a suite with variants: once every variant's run is settled, it reads back the
// runs this launch filed and carries their comparison (the variant table) to the main process, which
// prints it after the verdicts (plugin/reporter.ts).
import type { TestContext } from 'vitest'
import { appendReport, PLANNED_NOTE, variantLaunchComparison, type FiledVariant, type RunContext, type SuiteLaunch, type SuiteOutcome } from '../src/host/index.js'
import type { ResolvedSuite } from '../src/suite/types.js'
import type { SuiteRun } from './suite-run.js'

/** The name of the test that carries a suite's variant table. */
export const VARIANTS_TEST = 'digline variants'

export interface VariantBlock {
  suite: ResolvedSuite
  launch: SuiteLaunch
  run?: Promise<SuiteRun>
}

async function settledOutcome(block: VariantBlock): Promise<SuiteOutcome | 'planned' | undefined> {
  if (block.run === undefined) return undefined
  try {
    const run = await block.run
    if (run.planned) return 'planned'
    return await run.outcome
  } catch {
    // the variant's own tests report why it did not finish
    return undefined
  }
}

export async function variantsTest({ task, skip }: TestContext, suite: string, blocks: readonly VariantBlock[], ctx: RunContext): Promise<void> {
  const outcomes = await Promise.all(blocks.map(settledOutcome))
  if (outcomes.includes('planned')) skip(PLANNED_NOTE)
  const filedKey = (o: SuiteOutcome | 'planned' | undefined): string | undefined =>
    o === undefined || o === 'planned' || o.location === undefined || o.shard?.open === true ? undefined : o.key
  // A variant this launch left out (finished by an earlier leg of a resumed launch) is read under the key of its siblings.
  const shared = outcomes.map(filedKey).find((k) => k !== undefined)
  const filed: FiledVariant[] = []
  blocks.forEach((block, i) => {
    const key = filedKey(outcomes[i]) ?? (block.launch.kind === 'skip' ? shared : undefined)
    if (key !== undefined) filed.push({ variant: block.suite.variant!.name, suite: block.suite.name, key })
  })
  const table = await variantLaunchComparison(ctx, suite, filed)
  if (table === undefined) skip('fewer than two variants were filed by this launch, so there is no variant table')
  task.meta.digline = { kind: 'variants', table: table! }
  // digline mcp answers with the table too (its launch names a progress report)
  const progress = blocks.map((b) => (b.launch.kind === 'fresh' || b.launch.kind === 'resume' ? b.launch.reports.progress : undefined)).find((p) => p !== undefined)
  if (progress !== undefined) appendReport(progress, { kind: 'variants', suite, table: table! })
}
