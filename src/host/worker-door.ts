// The host's door for a Vitest worker (plugin/eval-suite.ts, plugin/suite-run.ts and what they
// import): what a suite file's launch needs before, during and after its cases, and none of the bin's
// use cases. index.ts is the door for every other front end and re-exports the use cases defined here.
// Through index.ts a worker loaded some 60 modules it never used, about 1.3 ms of CPU each (ADR 0486);
// test/unit/host/launch-imports.test.ts holds a worker to this door's modules.
import { loadOnCall } from './load-on-call.js'

export { PLANNED_NOTE, suiteLaunchFor, type SuiteLaunch } from './launch/suite-launch.js'
export { appendReport } from './launch/launch-report.js'
export { BudgetReachedError } from './launch/errors.js'
export { describeUncalibrated } from './judge/judge-agreement.js'
export { formatMeasure, percent } from './judge/percent.js'
export type { CaseLine, SuiteOutcome } from './judge/suite-outcome.js'
export type { RunContext } from './launch/prepare-run.js'
export type { StartSuiteOptions } from './launch/start-suite.js'
export type { FiledVariant } from './launch/variant-launch.js'
export type { VariantComparison } from './judge/variant-comparison.js'
export type { RefusedSuiteFile, SuiteManifestEntry } from './launch/suite-manifest.js'

export const startSuite = loadOnCall(() => import('./launch/start-suite.js').then((m) => m.startSuite))
export const variantLaunchComparison = loadOnCall(() => import('./launch/variant-launch.js').then((m) => m.variantLaunchComparison))
