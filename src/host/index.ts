// The host's one door: every front end (plugin/, src/cli/, src/report/, src/mcp/) imports the host
// through this module and nothing else of src/host/ or src/store/ (checked by .dependency-cruiser.cjs).
// A front end pays only for what it calls (ADR 0420): what is exported as it is comes from light
// modules (errors, types, the option check, the verdict's wording, pure helpers); a use case that
// reaches a store backend, the driver, a launch or zod is exported through loadOnCall, with its own
// signature, and its module is imported at its first call. test/unit/host/launch-imports.test.ts
// fails when importing this door loads one of them.
import { loadOnCall } from './load-on-call.js'

// --- light: loaded with the door -------------------------------------------------------------
export * from './cache/cache-setting.js'
export * from './cache/cache-why.js'
export { codeFilesOf } from './cache/code-files.js'
// The judgement's one entry is judgeRun; the comparison's parts are exported as types only, so no
// front end can assemble an outcome of its own.
export type { BaselineComparison, ComparedBaseline, ComparedSide, UnreadableBaseline } from './judge/compare.js'
export * from './judge/family-wise.js'
export * from './judge/format-comparison.js'
export * from './judge/format-outcome.js'
export { formatJudgeNoise, judgeNoiseOfReplays, type JudgeNoise } from './judge/judge-noise.js'
export { describeAgreement, describeUncalibrated, type JudgeAgreement, type JudgeLabel } from './judge/judge-agreement.js'
export * from './judge/percent.js'
export * from './judge/run-changes.js'
export * from './judge/format-variants.js'
export type { VariantAmount, VariantComparison, VariantPair, VariantRow } from './judge/variant-comparison.js'
export { exitCodeForStatus, type CaseLine, type SuiteOutcome, type SuiteStatus } from './judge/suite-outcome.js'
export * from './launch/launch-directive.js'
export * from './launch/launch-report.js'
export * from './launch/launch-vitest.js'
export * from './launch/planned-dates.js'
export * from './launch/run-budget.js'
export * from './launch/shard.js'
export * from './launch/suite-launch.js'
export * from './launch/vitest-bin.js'
export * from './lifecycle/delete-run.js'
export * from './lifecycle/format-removal.js'
export * from './lifecycle/retire-suite.js'
export * from './lifecycle/retired-suites.js'
export * from './plan/format-plan.js'
export * from './project/init-project.js'
export * from './project/plugin-options.js'
export * from './project/project-session.js'
export * from './project/suite-summaries.js'
export { detectForge, type ForgeName } from './publish/forge-context.js'
export type { VerdictPost } from './publish/verdict-post.js'
export * from './report-data/format-report-summary.js'
export * from './review/review-format.js'
export type { ReviewRecord } from '../store/review.js'
// the host's own errors are part of its face: front ends raise and recognise them (instanceof) through this door
export * from './errors.js'
export * from './launch/errors.js'
export * from './lifecycle/errors.js'
export * from './plan/errors.js'
export * from './publish/errors.js'
export type { Store } from '../store/contract.js'
export { describeStore } from '../store/store-locator.js'

// --- heavy: the types now, the code at the first call -----------------------------------------
export type * from './cache/cache-store.js'
export type * from './judge/compare-against.js'
export type * from './judge/explain-run.js'
export type * from './judge/judge-run.js'
export type * from './launch/acknowledged-launch.js'
export type * from './launch/artifacts.js'
export type * from './launch/choose-resume.js'
export type * from './launch/launch-suite.js'
export type * from './launch/plan-launch.js'
export type * from './launch/prepare-run.js'
export type * from './launch/run-key.js'
export type * from './launch/start-suite.js'
export type * from './launch/suite-manifest.js'
export type * from './launch/variant-launch.js'
export type * from './lifecycle/export-runs.js'
export type * from './lifecycle/import-runs.js'
export type * from './lifecycle/merge-shards.js'
export type * from './lifecycle/promote.js'
export type * from './lifecycle/rejudge.js'
export type * from './plan/plan.js'
export type * from './project/open-project.js'
export type * from './project/pending-rows.js'
export type * from './project/project-settings.js'
export type * from './publish/publish-verdict.js'
export type * from './report-data/report-data.js'
export type * from './review/label-case.js'
export type * from './review/review-dataset.js'
export type * from './review/reviewer.js'

/** The local cache beside a team store (cache/cache-store.ts), opened once the first command asks for it. */
export const localCacheBeside = async (...args: Parameters<typeof import('./cache/cache-store.js').localCacheBeside>) =>
  (await import('./cache/cache-store.js')).localCacheBeside(...args)
export const compareRunAgainst = loadOnCall(() => import('./judge/compare-against.js').then((m) => m.compareRunAgainst))
export const explainRun = loadOnCall(() => import('./judge/explain-run.js').then((m) => m.explainRun))
export const judgeRun = loadOnCall(() => import('./judge/judge-run.js').then((m) => m.judgeRun))
export const billLaunch = loadOnCall(() => import('./launch/acknowledged-launch.js').then((m) => m.billLaunch))
export const runAcknowledged = loadOnCall(() => import('./launch/acknowledged-launch.js').then((m) => m.runAcknowledged))
export const digestArtifacts = loadOnCall(() => import('./launch/artifacts.js').then((m) => m.digestArtifacts))
export const chooseResume = loadOnCall(() => import('./launch/choose-resume.js').then((m) => m.chooseResume))
export const pendingOfTenant = loadOnCall(() => import('./launch/choose-resume.js').then((m) => m.pendingOfTenant))
export const launchSuite = loadOnCall(() => import('./launch/launch-suite.js').then((m) => m.launchSuite))
export const planLaunch = loadOnCall(() => import('./launch/plan-launch.js').then((m) => m.planLaunch))
export const prepareRun = loadOnCall(() => import('./launch/prepare-run.js').then((m) => m.prepareRun))
export const resolveRunKey = loadOnCall(() => import('./launch/run-key.js').then((m) => m.resolveRunKey))
export const startSuite = loadOnCall(() => import('./launch/start-suite.js').then((m) => m.startSuite))
export const collectSuiteManifest = loadOnCall(() => import('./launch/suite-manifest.js').then((m) => m.collectSuiteManifest))
export const collectNamedSuites = loadOnCall(() => import('./launch/suite-manifest.js').then((m) => m.collectNamedSuites))
export const variantLaunchComparison = loadOnCall(() => import('./launch/variant-launch.js').then((m) => m.variantLaunchComparison))
export const runsToExport = loadOnCall(() => import('./lifecycle/export-runs.js').then((m) => m.runsToExport))
export const writeExport = loadOnCall(() => import('./lifecycle/export-runs.js').then((m) => m.writeExport))
export const importRuns = loadOnCall(() => import('./lifecycle/import-runs.js').then((m) => m.importRuns))
export const fileMergedRun = loadOnCall(() => import('./lifecycle/merge-shards.js').then((m) => m.fileMergedRun))
export const planMerge = loadOnCall(() => import('./lifecycle/merge-shards.js').then((m) => m.planMerge))
export const promoteRun = loadOnCall(() => import('./lifecycle/promote.js').then((m) => m.promoteRun))
export const filedReplay = loadOnCall(() => import('./lifecycle/rejudge.js').then((m) => m.filedReplay))
export const prepareReplay = loadOnCall(() => import('./lifecycle/rejudge.js').then((m) => m.prepareReplay))
export const rejudgeSource = loadOnCall(() => import('./lifecycle/rejudge.js').then((m) => m.rejudgeSource))
export const replayRun = loadOnCall(() => import('./lifecycle/rejudge.js').then((m) => m.replayRun))
export const planSuite = loadOnCall(() => import('./plan/plan.js').then((m) => m.planSuite))
export const openProject = loadOnCall(() => import('./project/open-project.js').then((m) => m.openProject))
export const pendingRows = loadOnCall(() => import('./project/pending-rows.js').then((m) => m.pendingRows))
export const projectSettings = loadOnCall(() => import('./project/project-settings.js').then((m) => m.projectSettings))
export const previewVerdict = loadOnCall(() => import('./publish/publish-verdict.js').then((m) => m.previewVerdict))
export const publishVerdict = loadOnCall(() => import('./publish/publish-verdict.js').then((m) => m.publishVerdict))
export const liveRuns = loadOnCall(() => import('./report-data/report-data.js').then((m) => m.liveRuns))
export const reportData = loadOnCall(() => import('./report-data/report-data.js').then((m) => m.reportData))
/** The live runs' follower of `digline view` (report-data.ts's LiveRunFollower), its module loaded with it. */
export const followLiveRuns = async (...args: ConstructorParameters<typeof import('./report-data/report-data.js').LiveRunFollower>) =>
  new (await import('./report-data/report-data.js')).LiveRunFollower(...args)
export const labelCase = loadOnCall(() => import('./review/label-case.js').then((m) => m.labelCase))
export const reviewDatasetRows = loadOnCall(() => import('./review/review-dataset.js').then((m) => m.reviewDatasetRows))
export const reviewsOf = loadOnCall(() => import('./review/review-dataset.js').then((m) => m.reviewsOf))
export const writeReviewExport = loadOnCall(() => import('./review/review-dataset.js').then((m) => m.writeReviewExport))
export const reviewerOf = loadOnCall(() => import('./review/reviewer.js').then((m) => m.reviewerOf))
