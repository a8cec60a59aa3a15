// digline's errors are recognised by what they are (an own brand and a name its tables own), never by
// their name alone, and data that crossed a process boundary is rebuilt into its real class.
import { describe, expect, test } from 'vitest'
import { diglineErrorKind, isRefusal, reviveError } from '../../src/errors/recognise.js'
import { InternalError } from '../../src/errors/base.js'
import { PathRefusedError } from '../../src/suite/errors.js'
import { StoreWriteError } from '../../src/store/errors.js'
import { UsageError } from '../../src/host/errors.js'
import { exitCodeForChild, exitCodeForError, exitCodeForLaunch, exitCodesLine, worstExitCode } from '../../src/exit-codes.js'

/** What Vitest's worker → main serialization leaves of an error: its own enumerable data. */
const acrossProcesses = (error: Error): unknown => JSON.parse(JSON.stringify({ ...error, name: error.name, message: error.message, stack: error.stack }))

describe('recognising digline errors', () => {
  test("a user's own class UsageError is not a refusal, in process or as data", () => {
    class UserUsageError extends Error {
      override name = 'UsageError'
    }
    const error = new UserUsageError('bad flag in my own CLI')
    expect(isRefusal(error)).toBe(false)
    expect(exitCodeForError(error)).toBe(2)
    expect(exitCodeForError(acrossProcesses(error))).toBe(2)
  })

  test.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])('an error named %s is no digline error, even with the brand', (name) => {
    const error = Object.assign(new Error('x'), { name })
    expect(diglineErrorKind(error)).toBeUndefined()
    expect(exitCodeForError(error)).toBe(2)
    expect(exitCodeForError({ name, message: 'x', digline: true })).toBe(2)
  })

  test('a brand on the prototype only does not count', () => {
    const fake = Object.create({ digline: true }) as object
    Object.assign(fake, { name: 'UsageError', message: 'x' })
    expect(diglineErrorKind(fake)).toBeUndefined()
  })

  test('refusals, failures and internal errors are told apart, also as plain data', () => {
    for (const [error, kind, code] of [
      [new UsageError('u', 'n'), 'refusal', 64],
      [new StoreWriteError('w', 'n', 'ENOSPC'), 'failure', 2],
      [new InternalError('a bug'), 'internal', 2],
    ] as const) {
      expect(diglineErrorKind(error)).toBe(kind)
      expect(diglineErrorKind(acrossProcesses(error))).toBe(kind)
      expect(exitCodeForError(acrossProcesses(error))).toBe(code)
    }
  })
})

describe('reviveError', () => {
  test('rebuilds a refusal that crossed a process boundary into its real class', () => {
    const original = new PathRefusedError('suite "../x" was refused', 'use a safe name', ['suite'])
    const revived = reviveError(acrossProcesses(original))
    expect(revived).toBeInstanceOf(PathRefusedError)
    expect(revived).toMatchObject({ name: 'PathRefusedError', exitCode: 64, next: 'use a safe name', path: ['suite'], message: original.message })
    expect(isRefusal(revived)).toBe(true)
  })

  test('rebuilds toData() as handed to the workers', () => {
    const revived = reviveError(JSON.parse(JSON.stringify(new UsageError('u', 'n', ['--x']).toData())))
    expect(revived).toBeInstanceOf(UsageError)
    expect(revived.message).toBe('u\n  next: n')
  })

  test('keeps the errno of a failed write, and an internal error stays internal', () => {
    const write = reviveError(acrossProcesses(new StoreWriteError('w', 'n', 'ENOSPC')))
    expect(write).toBeInstanceOf(StoreWriteError)
    expect((write as StoreWriteError).errno).toBe('ENOSPC')
    const internal = reviveError(acrossProcesses(new InternalError('a bug')))
    expect(internal).toBeInstanceOf(InternalError)
    expect(exitCodeForError(internal)).toBe(2)
  })

  test("leaves anything else a plain Error with its name: a user's UsageError is not rebuilt as ours", () => {
    const revived = reviveError({ name: 'UsageError', message: 'mine', stack: 'UsageError: mine\n    at x' })
    expect(revived).not.toBeInstanceOf(UsageError)
    expect(revived).toBeInstanceOf(Error)
    expect(revived).toMatchObject({ name: 'UsageError', message: 'mine' })
    expect(reviveError('a string').message).toBe('a string')
    expect(reviveError({ name: 'toString', message: 'x', digline: true })).not.toHaveProperty('exitCode')
  })
})

describe('the exit code table', () => {
  test('precedence: 64 over 2 over 1 over 0', () => {
    expect(worstExitCode([])).toBe(0)
    expect(worstExitCode([0, 1])).toBe(1)
    expect(worstExitCode([1, 2, 0])).toBe(2)
    expect(worstExitCode([2, 64, 1])).toBe(64)
    expect(exitCodeForLaunch({ verdicts: ['held', 'regressed'], refusals: 0, failures: 0, failedTests: 0 })).toBe(1)
    expect(exitCodeForLaunch({ verdicts: ['missed', 'baseline-unreadable'], refusals: 0, failures: 0, failedTests: 1 })).toBe(2)
    expect(exitCodeForLaunch({ verdicts: ['errored'], refusals: 1, failures: 3, failedTests: 0 })).toBe(64)
  })

  test('a child process: a code of the table passes through, a signal or another code is 2', () => {
    for (const code of [0, 1, 2, 64]) expect(exitCodeForChild(code, null)).toBe(code)
    expect(exitCodeForChild(3, null)).toBe(2)
    expect(exitCodeForChild(137, null)).toBe(2)
    expect(exitCodeForChild(null, 'SIGKILL')).toBe(2)
    expect(exitCodeForChild(0, 'SIGTERM')).toBe(2)
  })

  test('the one-line list the usage texts print', () => {
    expect(exitCodesLine()).toBe('0 holds, 1 missed, 2 not judged, 64 refused')
  })
})
