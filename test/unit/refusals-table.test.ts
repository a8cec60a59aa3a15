// REFUSALS is complete: every refusal class is in it, every failure in FAILURES, and the generated
// docs/refusals.md says what the tables say.
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import * as errors from '../../src/errors.js'
import { DiglineError, DiglineFailure, DiglineRefusal, FAILURES, INTERNAL_ERRORS, REFUSALS } from '../../src/errors.js'
import { exitCodeForError } from '../../src/exit-codes.js'
import { renderRefusalsDoc } from '../../scripts/refusals-doc.js'

const classes = Object.entries(errors).filter(([, v]) => typeof v === 'function' && v.prototype instanceof Error) as [string, new (...a: never[]) => Error][]

test('every exported refusal class is in REFUSALS under its own name, and nothing else is', () => {
  const refusals = classes
    .filter(([, c]) => c.prototype instanceof DiglineRefusal)
    .map(([n]) => n)
    .sort()
  expect(Object.keys(REFUSALS).sort()).toEqual(refusals)
  for (const [name, entry] of Object.entries(REFUSALS)) {
    const instance = new (entry.error as unknown as new (w: string, n: string) => DiglineRefusal)('something was refused', 'run the next thing')
    expect(instance.name).toBe(name)
    expect(instance.exitCode).toBe(64)
    expect(exitCodeForError(instance)).toBe(64)
    expect(instance.message).toContain('next: run the next thing')
  }
})

test('every exported failure class is in FAILURES and exits 2', () => {
  const failures = classes
    .filter(([, c]) => c.prototype instanceof DiglineFailure)
    .map(([n]) => n)
    .sort()
  expect(Object.keys(FAILURES).sort()).toEqual(failures)
  for (const [name, entry] of Object.entries(FAILURES)) {
    const instance = new (entry.error as unknown as new (w: string, n: string) => DiglineFailure)('x', 'y')
    expect(instance.name).toBe(name)
    expect(exitCodeForError(instance)).toBe(2)
  }
})

test('every exported internal error class is in INTERNAL_ERRORS, exits 2 and asks to be reported', () => {
  const internal = classes
    .filter(
      ([, c]) =>
        c.prototype instanceof DiglineError &&
        !([DiglineRefusal, DiglineFailure] as unknown[]).includes(c) &&
        !(c.prototype instanceof DiglineRefusal) &&
        !(c.prototype instanceof DiglineFailure),
    )
    .map(([n]) => n)
    .sort()
  expect(Object.keys(INTERNAL_ERRORS).sort()).toEqual(internal)
  for (const [name, entry] of Object.entries(INTERNAL_ERRORS)) {
    const instance = new (entry.error as unknown as new (w: string) => DiglineError)('x')
    expect(instance.name).toBe(name)
    expect(exitCodeForError(instance)).toBe(2)
    expect(instance.message).toMatch(/defect of digline.*report it/)
  }
})

test('a refusal is recognised after crossing a process boundary as plain data', () => {
  const data = JSON.parse(JSON.stringify(new errors.PathRefusedError('x', 'y').toData()))
  expect(errors.isRefusal(data)).toBe(true)
  expect(exitCodeForError(data)).toBe(64)
  expect(exitCodeForError(new Error('plain'))).toBe(2)
})

test('docs/refusals.md is the generated one (npm run refusals:docs)', () => {
  expect(readFileSync(new URL('../../docs/refusals.md', import.meta.url), 'utf8')).toBe(renderRefusalsDoc(errors))
})

test('DIGLINE_VERSION follows package.json', async () => {
  const { DIGLINE_VERSION } = await import('../../src/version.js')
  expect(DIGLINE_VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
})
