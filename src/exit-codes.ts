// The exit codes (SPEC §5): what each means, which outranks which, and the one translation of
// verdicts, errors and child processes into them. Every front end (the reporter, the CLI, the
// commands that launch Vitest) and every text that explains the codes reads them from here.
import { diglineErrorKind } from './errors/recognise.js'
import { type ExitCode } from './errors/base.js'

export type { ExitCode }

export interface ExitCodeMeaning {
  /** A word or two, for one-line lists ("0 holds, 1 missed, …"). */
  readonly word: string
  /** One sentence, printed after `digline exit N:` and in the docs. */
  readonly meaning: string
}

export const EXIT_CODES: Readonly<Record<ExitCode, ExitCodeMeaning>> = {
  0: { word: 'holds', meaning: 'every suite holds: thresholds met, no regression against the baseline' },
  1: { word: 'missed', meaning: 'a suite regressed, a threshold was missed or another test failed' },
  2: {
    word: 'not judged',
    meaning:
      'not judged: a case errored, a baseline cannot be read, a judge the suite asks to be calibrated is not, a run could not be written, the run was stopped, or digline hit a defect of its own',
  },
  64: { word: 'refused', meaning: 'refused: fix what is named above, then run again; nothing was changed' },
}

/** Which code a launch exits with when several apply: the first of these that any part earned. */
export const EXIT_PRECEDENCE: readonly ExitCode[] = [64, 2, 1, 0]

/** "0 holds, 1 missed, 2 not judged, 64 refused" — for usage and help texts. */
export function exitCodesLine(): string {
  return EXIT_PRECEDENCE.slice()
    .sort((a, b) => a - b)
    .map((code) => `${code} ${EXIT_CODES[code].word}`)
    .join(', ')
}

/** The code that outranks the others (0 for none). */
export function worstExitCode(codes: Iterable<ExitCode>): ExitCode {
  const seen = new Set(codes)
  return EXIT_PRECEDENCE.find((code) => seen.has(code)) ?? 0
}

/**
 * The verdict of one suite. held: thresholds met, no regression. missed: a threshold missed.
 * regressed: a drop against the baseline beyond the tolerances. errored: a case errored.
 * baseline-unreadable: the committed baseline cannot be read, so the run was not judged (ADR 0010).
 * uncalibrated: the run regressed or missed a threshold only through judges that have not met the
 * suite's calibration, so it was not judged (ADR 0352).
 */
export type VerdictStatus = 'held' | 'missed' | 'regressed' | 'errored' | 'baseline-unreadable' | 'uncalibrated'

const EXIT_FOR_STATUS: Readonly<Record<VerdictStatus, ExitCode>> = {
  held: 0,
  missed: 1,
  regressed: 1,
  errored: 2,
  'baseline-unreadable': 2,
  uncalibrated: 2,
}

export function exitCodeForStatus(status: VerdictStatus): ExitCode {
  return EXIT_FOR_STATUS[status]
}

/** Anything thrown: 64 for one of digline's refusals (recognised by what it is), else 2. */
export function exitCodeForError(error: unknown): ExitCode {
  return diglineErrorKind(error) === 'refusal' ? 64 : 2
}

/** What a launch held, counted by the reporter. */
export interface LaunchTally {
  verdicts: readonly VerdictStatus[]
  /** Refusals raised anywhere in the launch (an invalid suite, bad options). */
  refusals: number
  /** digline failures, internal errors and errors outside any judged suite (a write that failed, a crash). */
  failures: number
  /** Ordinary Vitest tests that failed beside the suites. */
  failedTests: number
}

/** ADR 0005: 64 for a refusal, else 2 if anything could not be judged, else 1 if anything missed, else 0. */
export function exitCodeForLaunch(tally: LaunchTally): ExitCode {
  const codes: ExitCode[] = tally.verdicts.map(exitCodeForStatus)
  if (tally.refusals > 0) codes.push(64)
  if (tally.failures > 0) codes.push(2)
  if (tally.failedTests > 0) codes.push(1)
  return worstExitCode(codes)
}

/** A child process's exit as digline's: a code of the table passes through; a signal or any other code reads as 2. */
export function exitCodeForChild(code: number | null, signal: NodeJS.Signals | null): ExitCode {
  if (signal !== null || code === null) return 2
  return Object.hasOwn(EXIT_CODES, code) ? (code as ExitCode) : 2
}
