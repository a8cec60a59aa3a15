// After a launch of a suite with variants, the variants' filed runs read back and set side by side
// (host/judge/variant-comparison.ts): the table the launch prints (SPEC §15).
import { RunNotFoundError } from '../../store/errors.js'
import { openStore } from '../../store/open-store.js'
import { compareVariants, type VariantComparison, type VariantRun } from '../judge/variant-comparison.js'
import type { RunContext } from './prepare-run.js'

export interface FiledVariant {
  variant: string
  /** The suite its runs are filed under, `<suite>.<variant>`, and the key this launch filed or finished. */
  suite: string
  key: string
}

/**
 * The variants of `suite` that this launch filed, compared; undefined when fewer than two were filed
 * (a filtered run, an open shard, a variant stopped before its document was written).
 */
export async function variantLaunchComparison(ctx: RunContext, suite: string, filed: readonly FiledVariant[]): Promise<VariantComparison | undefined> {
  const store = openStore({ store: ctx.storeRoot })
  try {
    const runs: VariantRun[] = []
    for (const f of filed) {
      const document = await store.readRun(ctx.tenant, f.suite, f.key).catch((error: unknown) => {
        if (error instanceof RunNotFoundError) return undefined
        throw error
      })
      if (document !== undefined) runs.push({ ...f, document })
    }
    return runs.length < 2 ? undefined : compareVariants(suite, runs)
  } finally {
    await store.close()
  }
}
