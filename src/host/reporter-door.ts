// The host's door for Vitest's main process (plugin/index.ts, plugin/reporter.ts, plugin/held-verdicts.ts):
// the plugin's options check and the wording of the verdicts, nothing of the bin's use cases. Through
// index.ts the main process of every run loaded some 30 modules it never used (ADR 0486).
export { resolveOptions, type DiglineOptions } from './project/plugin-options.js'
export { describeFamily, familyWise, type FamilyWise, type LaunchFamily } from './judge/family-wise.js'
export { formatLaunchMarkdown } from './judge/format-comparison.js'
export { formatOutcome } from './judge/format-outcome.js'
export { formatVariantMarkdown, formatVariantTable } from './judge/format-variants.js'
export type { CaseLine, SuiteOutcome } from './judge/suite-outcome.js'
export type { VariantComparison } from './judge/variant-comparison.js'
