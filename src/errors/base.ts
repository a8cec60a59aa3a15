// The base every error of digline is built on, at the lowest layer: the brand, the `next:` line, the
// three kinds and how a family of errors is written down as data. Refusals (exit 64) say what was
// refused and the command to run next, and are raised before anything on disk changes. Failures
// (exit 2) say why a run could not be judged. An internal error (exit 2) is a defect of digline
// itself. This file imports nothing, so every layer can build its own errors on it.
//
// Each layer keeps the errors it raises next to its code, in a leaf module named errors.ts that
// imports only this file and exports its classes with a family table (what each means, for
// docs/refusals.md). src/errors/catalogue.ts collects the families; src/errors/recognise.ts tells
// digline's errors from anyone else's by the brand and the catalogue (ADR 0140).

export type ExitCode = 0 | 1 | 2 | 64

export interface DiglineErrorData {
  /** The class name, stable across releases; reporters and tests match on it. */
  readonly name: string
  readonly exitCode: ExitCode
  readonly message: string
  /** The command or step that moves the user forward. */
  readonly next: string
  /** Where in the input the problem is, as a path of keys (zod-style), when there is one. */
  readonly path: readonly (string | number)[]
  /** The brand: an own data property, so plain copies made across a process boundary keep it. */
  readonly digline: true
}

export abstract class DiglineError extends Error implements DiglineErrorData {
  abstract override readonly name: string
  abstract readonly exitCode: ExitCode
  readonly next: string
  readonly path: readonly (string | number)[]
  readonly digline = true

  constructor(what: string, next: string, path: readonly (string | number)[] = []) {
    super(`${what}\n  next: ${next}`)
    this.next = next
    this.path = path
  }

  toData(): DiglineErrorData {
    return { name: this.name, exitCode: this.exitCode, message: this.message, next: this.next, path: this.path, digline: true }
  }
}

/** Bad input or bad usage. Nothing on disk was changed. Exit 64. */
export abstract class DiglineRefusal extends DiglineError {
  readonly exitCode = 64 as const
}

/** The run could not be judged (a write failed, the disk is full). Exit 2. */
export abstract class DiglineFailure extends DiglineError {
  readonly exitCode = 2 as const
}

/** What every internal error asks of the user. */
export const REPORT_DEFECT = 'This is a defect of digline, not of your input: report it to the digline maintainers with this message and its stack.'

/** A defect of digline itself (a document it built that its own schema rejects, say). Exit 2. */
export class InternalError extends DiglineError {
  readonly name = 'InternalError'
  readonly exitCode = 2 as const
  constructor(what: string, path: readonly (string | number)[] = []) {
    super(`digline internal error: ${what}`, REPORT_DEFECT, path)
  }
}

/** A real instance of one of digline's error classes (in this process). */
export function isDiglineError(value: unknown): value is DiglineError {
  return value instanceof DiglineError
}

export type RefusalClass = abstract new (...args: never[]) => DiglineRefusal
export type FailureClass = abstract new (...args: never[]) => DiglineFailure
export type InternalClass = abstract new (...args: never[]) => InternalError

export interface ErrorEntry<C> {
  readonly error: C
  /** When it is raised, in one sentence (the generated docs/refusals.md quotes it). */
  readonly when: string
  /** What to do next, in general terms; each instance names the exact command. */
  readonly next: string
}

/** A family of errors as data: each class under its own name, with when it is raised and what to do. */
export type RefusalFamily = Readonly<Record<string, ErrorEntry<RefusalClass>>>
export type FailureFamily = Readonly<Record<string, ErrorEntry<FailureClass>>>
export type InternalFamily = Readonly<Record<string, ErrorEntry<InternalClass>>>

/** Defects of digline itself. Exit 2; the message asks the user to report it. */
export const INTERNAL_ERRORS = {
  InternalError: {
    error: InternalError,
    when: 'digline met a state its own code should never produce (a document it built that its own schema rejects, results it handed itself that do not fit the suite). Never caused by your input.',
    next: 'Report it to the digline maintainers with the message and its stack; a journaled run can still be finished with `digline run --resume`.',
  },
} as const satisfies InternalFamily
