// The host's second door, for Vitest's main process (ADR 0407): checking the plugin's options and
// wording the launch's verdicts. It reaches neither the store, the driver nor the schemas, so the
// main process of every `vitest run` loads a few dozen modules of digline instead of the whole host
// face; the workers, the CLI, the report and MCP use src/host/index.ts, which exports all of this too.
export { resolveOptions, type DiglineOptions, type ResolvedOptions } from './project/plugin-options.js'
export { describeFamily, familyWise, FAMILY_WISE_METHODS, type FamilyWise, type LaunchFamily } from './judge/family-wise.js'
export { formatMeasure, formatOutcome } from './judge/format-outcome.js'
export { formatLaunchMarkdown } from './judge/format-comparison.js'
export { formatVariantMarkdown, formatVariantTable } from './judge/format-variants.js'
export { percent } from './judge/percent.js'
export type { CaseLine, SuiteOutcome } from './judge/suite-outcome.js'
export type { VariantComparison } from './judge/variant-comparison.js'
