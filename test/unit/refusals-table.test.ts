// REFUSALS is complete: every error class digline defines lives in a layer's errors.ts, every such
// module's refusals are in REFUSALS, its failures in FAILURES, and the generated docs/refusals.md
// says what the tables say (ADR 0140).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { DiglineError, DiglineFailure, DiglineRefusal } from '../../src/errors/base.js'
import { FAILURES, INTERNAL_ERRORS, REFUSALS } from '../../src/errors/catalogue.js'
import { isRefusal } from '../../src/errors/recognise.js'
import { PathRefusedError } from '../../src/suite/errors.js'
import { exitCodeForError } from '../../src/exit-codes.js'
import { renderRefusalsDoc } from '../../scripts/refusals-doc.js'

const ROOT = new URL('../../', import.meta.url).pathname
const sourceFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
const SOURCES = [...sourceFiles('src'), ...sourceFiles('plugin')]
const isErrorModule = (file: string): boolean => file === 'src/errors/base.ts' || /^(src\/(.+\/)?|plugin\/)errors\.ts$/.test(file)
const ERROR_MODULES = SOURCES.filter(isErrorModule)

/** Every class exported by every layer's errors.ts (and the base), found on disk, not in the catalogue. */
const classes: [string, new (...a: never[]) => Error][] = []
for (const file of ERROR_MODULES) {
  const module = (await import(join(ROOT, file))) as Record<string, unknown>
  for (const [name, value] of Object.entries(module))
    if (typeof value === 'function' && value.prototype instanceof Error) classes.push([name, value as new (...a: never[]) => Error])
}

test("every error class of digline is defined in a layer's errors.ts, and every class defined there is exported", () => {
  const defined = SOURCES.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^(export )?(abstract )?class (\w+) extends (DiglineError|DiglineRefusal|DiglineFailure|InternalError)\b/gm)].map((m) => ({
      file,
      name: m[3]!,
      exported: m[1] !== undefined,
    })),
  )
  expect(defined.filter((d) => !isErrorModule(d.file)).map((d) => `${d.file}: ${d.name}`)).toEqual([])
  expect(defined.filter((d) => !d.exported).map((d) => `${d.file}: ${d.name}`)).toEqual([])
  expect(defined.map((d) => d.name).sort()).toEqual(
    classes
      .filter(([n]) => n !== 'DiglineError')
      .map(([n]) => n)
      .sort(),
  )
  expect(new Set(classes.map(([n]) => n)).size).toBe(classes.length)
})

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
  const data = JSON.parse(JSON.stringify(new PathRefusedError('x', 'y').toData()))
  expect(isRefusal(data)).toBe(true)
  expect(exitCodeForError(data)).toBe(64)
  expect(exitCodeForError(new Error('plain'))).toBe(2)
})

test('docs/refusals.md is the generated one (npm run refusals:docs)', () => {
  expect(readFileSync(new URL('../../docs/refusals.md', import.meta.url), 'utf8')).toBe(renderRefusalsDoc({ REFUSALS, FAILURES, INTERNAL_ERRORS }))
})

test('DIGLINE_VERSION follows package.json', async () => {
  const { DIGLINE_VERSION } = await import('../../src/version.js')
  expect(DIGLINE_VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
})
