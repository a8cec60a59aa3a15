// A launch for a front end that must not spend an unannounced bill (digline mcp): first a plan, a
// real launch whose workers announce their bill and call nothing; then the run, only when the caller
// acknowledges exactly the calls a fresh plan announces, and with each suite's acknowledged bill
// handed to its worker, which refuses another before any call. The run reports each settled case.
import { rmSync } from 'node:fs'
import { makeTempDir } from '../../suite/temp-dir.js'
import { join } from 'node:path'
import { BillNotAcknowledgedError, LaunchNotPlannedError, ResumedSuiteNotDeclaredError } from './errors.js'
import { reviveError } from '../../errors/recognise.js'
import type { DiglineErrorData, ExitCode } from '../../errors/base.js'
import { encodeReports } from './launch-directive.js'
import { readReport, type PlanLine, type ProgressLine } from './launch-report.js'
import { launchVitest } from './launch-vitest.js'
import type { PlannedLaunch } from './plan-launch.js'
import type { CallPlan } from './prepare-run.js'
import type { SuiteOutcome } from '../judge/suite-outcome.js'
import type { VariantComparison } from '../judge/variant-comparison.js'

export interface PlannedSuite {
  suite: string
  key: string
  plan: CallPlan
  announcement: string
}

export interface LaunchBill {
  /** Calls to the target over every suite of the launch: the number a run must acknowledge. */
  calls: number
  suites: PlannedSuite[]
  /** Pending runs a resume without KEY passed over (older ones of a chosen suite). */
  passedOver: { suite: string; key: string }[]
}

/** Where vitest runs, and where its own output goes (never the front end's stdout). */
export interface VitestPlace {
  cwd: string
  output: (text: string) => void
}

function raise(refusal: DiglineErrorData): never {
  throw reviveError(refusal)
}

/** The announced bill of a planned launch: its workers prepare each suite as a run would, and call nothing. */
export async function billLaunch(place: VitestPlace, launch: PlannedLaunch): Promise<LaunchBill> {
  const dir = makeTempDir('digline-plan-')
  try {
    const path = join(dir, 'plan.jsonl')
    const env = encodeReports(launch.env, { plan: path })
    let tail = ''
    const output = (text: string) => {
      tail = (tail + text).slice(-2000)
      place.output(text)
    }
    const exitCode = await launchVitest({ cwd: place.cwd, stderr: place.output }, launch.vitestArgs, env, 'mcp', { output })
    const lines = readReport<PlanLine>(path)
    const refused = lines.find((l) => l.refusal !== undefined)
    if (refused?.refusal !== undefined) raise(refused.refusal)
    const suites = lines
      .filter((l): l is Extract<PlanLine, { refusal?: undefined }> => l.refusal === undefined)
      .map(({ suite, key, plan, announcement }) => ({ suite, key, plan, announcement }))
    for (const [suite, key] of Object.entries(launch.resumed)) {
      if (suites.some((s) => s.suite === suite)) continue
      throw new ResumedSuiteNotDeclaredError(
        `the resume of run ${key} was refused: it is of suite ${suite}, which announced no bill in this launch, so nothing would be resumed; nothing was called`,
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
    return { calls: suites.reduce((sum, s) => sum + s.plan.calls, 0), suites, passedOver: launch.passedOver }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface LaunchProgress {
  line: Extract<ProgressLine, { kind: 'case' }>
  settled: number
  total: number
}

export interface LaunchResult {
  exitCode: ExitCode
  plan: LaunchBill
  outcomes: SuiteOutcome[]
  /** Refusals and failures that stopped a suite after its plan (a stop, say). */
  problems: DiglineErrorData[]
  /** The variant table of each suite with variants whose variants this launch filed (SPEC §15). */
  variants: VariantComparison[]
}

export interface RunOptions {
  acknowledgedCalls: number
  onProgress?: (progress: LaunchProgress) => void | Promise<void>
  /** Stops the run as SIGTERM would: what was journaled stays resumable. */
  signal?: AbortSignal
}

const POLL_MS = 200

/**
 * Runs the launch only when `acknowledgedCalls` is exactly the bill a fresh plan announces; each
 * suite's worker then refuses, before any call, a bill other than the one planned (BillChangedError).
 */
export async function runAcknowledged(place: VitestPlace, launch: PlannedLaunch, options: RunOptions): Promise<LaunchResult> {
  const plan = await billLaunch(place, launch)
  if (plan.calls !== options.acknowledgedCalls) {
    throw new BillNotAcknowledgedError(
      `the launch was refused: acknowledgedCalls is ${options.acknowledgedCalls}, but a fresh plan of it announces ${plan.calls} call(s) to the target (${plan.suites.map((s) => s.announcement).join(' | ') || 'no suite'}); nothing was called`,
      `call it again with acknowledgedCalls ${plan.calls} if that bill is acceptable (plan_run shows it)`,
      ['acknowledgedCalls'],
    )
  }
  const dir = makeTempDir('digline-progress-')
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
    const acknowledged = Object.fromEntries(plan.suites.map((s) => [s.suite, s.plan.calls]))
    const env = encodeReports(launch.env, { progress: path, acknowledged })
    const exitCode = await launchVitest({ cwd: place.cwd, stderr: place.output }, launch.vitestArgs, env, 'mcp', {
      output: place.output,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    clearInterval(timer)
    await polling
    await drain()
    const lines = readReport<ProgressLine>(path)
    const outcomes = lines.filter((l) => l.kind === 'outcome').map((l) => l.outcome)
    const problems = lines.filter((l) => l.kind === 'refusal').map((l) => l.refusal)
    // A suite whose worker came to another bill called nothing: the launch answers with that refusal.
    const changed = problems.find((p) => p.name === 'BillChangedError')
    if (changed !== undefined) raise(changed)
    const variants = lines.filter((l) => l.kind === 'variants').map((l) => l.table)
    return { exitCode, plan, outcomes, problems, variants }
  } finally {
    clearInterval(timer)
    rmSync(dir, { recursive: true, force: true })
  }
}
