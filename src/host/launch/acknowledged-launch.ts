// A launch for a front end that must not spend an unannounced bill (digline mcp): first a plan, a
// real launch whose workers announce their bill and call nothing; then the run, only when the caller
// acknowledges exactly the calls a fresh plan announces. The run reports each settled case as it goes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BillNotAcknowledgedError, LaunchNotPlannedError, ResumedSuiteNotDeclaredError } from './errors.js'
import { SuiteNotDeclaredError } from '../errors.js'
import { reviveError } from '../../errors/recognise.js'
import { type DiglineErrorData, type ExitCode } from '../../errors/base.js'
import type { Store } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { chooseResume } from './choose-resume.js'
import { encodeDirective, encodeReports, type LaunchDirective } from './launch-directive.js'
import { readReport, type PlanLine, type ProgressLine } from './launch-report.js'
import { launchVitest } from './launch-vitest.js'
import type { CallPlan } from './prepare-run.js'
import { collectSuiteManifest } from './suite-manifest.js'
import type { SuiteOutcome } from '../judge/suite-outcome.js'
import { vitestBin } from './vitest-bin.js'

export interface LaunchProject {
  /** The directory `digline` was started in (the Vitest project). */
  cwd: string
  env: NodeJS.ProcessEnv
  /** The --config file, when one was named. */
  config: string | undefined
  tenant: string
  store: Store
  /** Where vitest's own output goes (never the front end's stdout). */
  output: (text: string) => void
}

/** A fresh run of every suite, or of one suite; or the resume of a pending run. */
export type LaunchRequest = { kind: 'fresh'; suite?: string | undefined } | { kind: 'resume'; key?: string | undefined; suite?: string | undefined; keepErrors: boolean }

export interface PlannedSuite {
  suite: string
  key: string
  plan: CallPlan
  announcement: string
}

export interface LaunchPlan {
  /** Calls to the target over every suite of the launch: the number a run must acknowledge. */
  calls: number
  suites: PlannedSuite[]
  /** Pending runs a resume without KEY passed over (older ones of a chosen suite). */
  passedOver: { suite: string; key: string }[]
}

interface Prepared {
  directive: LaunchDirective
  vitestArgs: string[]
  /** suite → key, for a resume: each must be planned. */
  resumed: Record<string, string>
  passedOver: { suite: string; key: string }[]
}

async function prepare(project: LaunchProject, request: LaunchRequest): Promise<Prepared> {
  const configArgs = project.config === undefined ? [] : ['--config', project.config]
  if (request.suite !== undefined) assertSafeSegment('suite', request.suite)
  if (request.kind === 'resume') {
    if (request.key !== undefined) assertSafeSegment('key', request.key)
    const choice = await chooseResume(project.store, project.tenant, {
      ...(request.key === undefined ? {} : { key: request.key }),
      ...(request.suite === undefined ? {} : { suite: request.suite }),
    })
    return {
      directive: { kind: 'resume', runs: choice.chosen, keepErrors: request.keepErrors },
      vitestArgs: configArgs,
      resumed: choice.chosen,
      passedOver: choice.passedOver.map((p) => ({ suite: p.suite, key: p.key })),
    }
  }
  if (request.suite === undefined) return { directive: { kind: 'fresh' }, vitestArgs: configArgs, resumed: {}, passedOver: [] }
  const manifest = await collectSuiteManifest(vitestBin(project.cwd), project.cwd, encodeDirective(project.env, { kind: 'fresh' }), project.config)
  const files = [...new Set(manifest.filter((e) => e.tenant === project.tenant && e.suite === request.suite && e.file !== undefined).map((e) => e.file!))]
  if (files.length === 0) {
    throw new SuiteNotDeclaredError(
      `suite ${request.suite} is not declared by any suite file of this Vitest project (tenant ${project.tenant}), so there is nothing to plan; nothing was called`,
      'Call list_suites, or plan_run without a suite to plan every suite of the project.',
      ['suite'],
    )
  }
  return { directive: { kind: 'fresh' }, vitestArgs: [...files, ...configArgs], resumed: {}, passedOver: [] }
}

function raise(refusal: DiglineErrorData): never {
  throw reviveError(refusal)
}

async function planPrepared(project: LaunchProject, prepared: Prepared): Promise<LaunchPlan> {
  const dir = mkdtempSync(join(tmpdir(), 'digline-plan-'))
  try {
    const path = join(dir, 'plan.jsonl')
    const env = encodeReports(encodeDirective(project.env, prepared.directive), { plan: path })
    let tail = ''
    const output = (text: string) => {
      tail = (tail + text).slice(-2000)
      project.output(text)
    }
    const exitCode = await launchVitest({ cwd: project.cwd, stderr: project.output }, prepared.vitestArgs, env, 'mcp', { output })
    const lines = readReport<PlanLine>(path)
    const refused = lines.find((l) => l.refusal !== undefined)
    if (refused?.refusal !== undefined) raise(refused.refusal)
    const suites = lines
      .filter((l): l is Extract<PlanLine, { refusal?: undefined }> => l.refusal === undefined)
      .map(({ suite, key, plan, announcement }) => ({ suite, key, plan, announcement }))
    for (const [suite, key] of Object.entries(prepared.resumed)) {
      if (suites.some((s) => s.suite === suite)) continue
      throw new ResumedSuiteNotDeclaredError(
        `the resume of run ${key} was refused: it is of suite ${suite}, which no suite file of this Vitest project declares any more (tenant ${project.tenant}), so nothing would be resumed; nothing was called`,
        `Restore the file that declares suite ${suite}, then plan the resume again; or \`digline delete --suite ${suite} --run ${key}\` to drop the journal`,
        ['key'],
      )
    }
    // A plan-only launch skips every digline test: a refusal (64) or an error (2) means a suite would not start.
    if ((suites.length === 0 && exitCode !== 0) || exitCode === 64 || exitCode === 2) {
      const last = tail.trim().split('\n').slice(-5).join('\n')
      throw new LaunchNotPlannedError(
        `vitest ended with exit ${exitCode} when asked for the bill (${suites.length} suite(s) announced one), so a run would not start as planned; nothing was called. Its last lines:\n${last}`,
        'Fix what those lines name (`vitest list` in the project shows whether the suite files load), then call plan_run again.',
      )
    }
    return { calls: suites.reduce((sum, s) => sum + s.plan.calls, 0), suites, passedOver: prepared.passedOver }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The announced bill of a launch; the workers prepare each suite as a run would and call nothing. */
export async function planLaunch(project: LaunchProject, request: LaunchRequest): Promise<LaunchPlan> {
  return planPrepared(project, await prepare(project, request))
}

export interface LaunchProgress {
  line: Extract<ProgressLine, { kind: 'case' }>
  settled: number
  total: number
}

export interface LaunchResult {
  exitCode: ExitCode
  plan: LaunchPlan
  outcomes: SuiteOutcome[]
  /** Refusals and failures that stopped a suite after its plan (a stop, say). */
  problems: DiglineErrorData[]
}

export interface RunOptions {
  acknowledgedCalls: number
  onProgress?: (progress: LaunchProgress) => void | Promise<void>
  /** Stops the run as SIGTERM would: what was journaled stays resumable. */
  signal?: AbortSignal
}

const POLL_MS = 200

/** Runs the launch only when `acknowledgedCalls` is exactly the bill a fresh plan announces. */
export async function runAcknowledged(project: LaunchProject, request: LaunchRequest, options: RunOptions): Promise<LaunchResult> {
  const prepared = await prepare(project, request)
  const plan = await planPrepared(project, prepared)
  if (plan.calls !== options.acknowledgedCalls) {
    throw new BillNotAcknowledgedError(
      `the launch was refused: acknowledgedCalls is ${options.acknowledgedCalls}, but a fresh plan of it announces ${plan.calls} call(s) to the target (${plan.suites.map((s) => s.announcement).join(' | ') || 'no suite'}); nothing was called`,
      `call it again with acknowledgedCalls ${plan.calls} if that bill is acceptable (plan_run shows it)`,
      ['acknowledgedCalls'],
    )
  }
  const dir = mkdtempSync(join(tmpdir(), 'digline-progress-'))
  const path = join(dir, 'progress.jsonl')
  const total = plan.suites.reduce((sum, s) => sum + s.plan.cases, 0)
  let seen = 0
  let settled = 0
  const drain = async () => {
    const lines = readReport<ProgressLine>(path)
    for (const line of lines.slice(seen)) {
      if (line.kind === 'case') {
        settled++
        await options.onProgress?.({ line, settled, total })
      }
    }
    seen = lines.length
  }
  let polling = Promise.resolve()
  const timer = setInterval(() => (polling = polling.then(drain, drain)), POLL_MS)
  try {
    const env = encodeReports(encodeDirective(project.env, prepared.directive), { progress: path })
    const exitCode = await launchVitest({ cwd: project.cwd, stderr: project.output }, prepared.vitestArgs, env, 'mcp', {
      output: project.output,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    clearInterval(timer)
    await polling
    await drain()
    const lines = readReport<ProgressLine>(path)
    const outcomes = lines.filter((l) => l.kind === 'outcome').map((l) => l.outcome)
    const problems = lines.filter((l) => l.kind === 'refusal').map((l) => l.refusal)
    return { exitCode, plan, outcomes, problems }
  } finally {
    clearInterval(timer)
    rmSync(dir, { recursive: true, force: true })
  }
}
