// REFUSALS is complete: every refusal class is in it, every failure in FAILURES, and the generated
// docs/refusals.md says what the tables say.
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import * as errors from '../../src/errors.js'
import { DiglineFailure, DiglineRefusal, FAILURES, REFUSALS } from '../../src/errors.js'
import { renderRefusalsDoc } from '../../src/refusals-doc.js'

const classes = Object.entries(errors).filter(([, v]) => typeof v === 'function' && v.prototype instanceof Error) as [string, new (...a: never[]) => Error][]

test('every exported refusal class is in REFUSALS under its own name, and nothing else is', () => {
  const refusals = classes.filter(([, c]) => c.prototype instanceof DiglineRefusal).map(([n]) => n).sort()
  expect(Object.keys(REFUSALS).sort()).toEqual(refusals)
  for (const [name, entry] of Object.entries(REFUSALS)) {
    const instance = new (entry.error as unknown as new (w: string, n: string) => DiglineRefusal)('something was refused', 'run the next thing')
    expect(instance.name).toBe(name)
    expect(instance.exitCode).toBe(64)
    expect(errors.exitCodeForError(instance)).toBe(64)
    expect(instance.message).toContain('next: run the next thing')
  }
})

test('every exported failure class is in FAILURES and exits 2', () => {
  const failures = classes.filter(([, c]) => c.prototype instanceof DiglineFailure).map(([n]) => n).sort()
  expect(Object.keys(FAILURES).sort()).toEqual(failures)
  for (const [name, entry] of Object.entries(FAILURES)) {
    const instance = new (entry.error as unknown as new (w: string, n: string) => DiglineFailure)('x', 'y')
    expect(instance.name).toBe(name)
    expect(errors.exitCodeForError(instance)).toBe(2)
  }
})

test('a refusal is recognised by name after crossing a process boundary as plain data', () => {
  const data = JSON.parse(JSON.stringify(new errors.PathRefusedError('x', 'y').toData()))
  expect(errors.isRefusal(data)).toBe(true)
  expect(errors.exitCodeForError(data)).toBe(64)
  expect(errors.exitCodeForError(new Error('plain'))).toBe(2)
})

test('docs/refusals.md is the generated one (npm run refusals:docs)', () => {
  expect(readFileSync(new URL('../../docs/refusals.md', import.meta.url), 'utf8')).toBe(renderRefusalsDoc())
})

test('DIGLINE_VERSION follows package.json', async () => {
  const { DIGLINE_VERSION } = await import('../../src/version.js')
  expect(DIGLINE_VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
})
