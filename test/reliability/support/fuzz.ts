// Inputs for the readers' fuzzers: mutations of a valid file (truncations, bit flips, deletions,
// insertions, line edits, splices of JSON tokens) and fast-check's own bytes and JSON values; and the
// one oracle every reader is held to: it answers, or it refuses by name.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import fc from 'fast-check'
import { expect } from 'vitest'
import { FAILURES, REFUSALS } from '../../../src/errors/catalogue.js'
import { isDiglineError } from '../../../src/errors/base.js'
import { snapshotTree, type TreeEntry } from '../../store/tree-snapshot.js'
import { FUZZ_RUNS, LONG } from './figures.js'

/** A refusal or failure digline names: its class, or the plain-object form a refusal crosses processes in. */
export function namedError(error: unknown): string | undefined {
  if (isDiglineError(error)) return error.name in REFUSALS || error.name in FAILURES ? error.name : undefined
  const e = error as { digline?: unknown; name?: unknown } | null | undefined
  if (e?.digline === true && typeof e.name === 'string' && (e.name in REFUSALS || e.name in FAILURES)) return e.name
  return undefined
}

/** Throws (so fast-check shrinks and reports the input) unless `error` is a named refusal. */
export function assertNamed(error: unknown, what: string): string {
  const name = namedError(error)
  if (name === undefined) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error)
    throw new Error(`${what} threw something digline does not name: ${detail}`)
  }
  return name
}

const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ',',
  ':',
  '\n',
  '\r\n',
  ' ',
  'null',
  'true',
  '-1',
  '1e309',
  '0.5',
  '"__proto__"',
  '{"__proto__":{}}',
  '\\u0000',
  '\u0000',
  '\uFFFD',
  '\u2028',
  '"schema_version":99',
  '"kind":"header"',
  '😀',
].map((t) => Buffer.from(t, 'utf8'))

function splice(bytes: Buffer, at: number, remove: number, insert: Uint8Array): Buffer {
  const start = Math.min(at, bytes.length)
  return Buffer.concat([bytes.subarray(0, start), Buffer.from(insert), bytes.subarray(Math.min(bytes.length, start + remove))])
}

function lines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = []
  let start = 0
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, start)) {
    out.push(bytes.subarray(start, i + 1))
    start = i + 1
  }
  if (start < bytes.length) out.push(bytes.subarray(start))
  return out
}

/** One edit of a valid file; applied up to three times in a row. */
function edit(valid: Buffer): fc.Arbitrary<(bytes: Buffer) => Buffer> {
  const n = Math.max(1, valid.length)
  const at = fc.nat({ max: n })
  return fc.oneof(
    at.map((i) => (b: Buffer) => b.subarray(0, Math.min(i, b.length))),
    fc.tuple(at, fc.nat({ max: 7 })).map(([i, bit]) => (b: Buffer) => {
      if (b.length === 0) return b
      const out = Buffer.from(b)
      out[i % b.length] = out[i % b.length]! ^ (1 << bit)
      return out
    }),
    fc.tuple(at, fc.nat({ max: 64 })).map(
      ([i, len]) =>
        (b: Buffer) =>
          splice(b, i, len, Buffer.alloc(0)),
    ),
    fc.tuple(at, fc.uint8Array({ minLength: 1, maxLength: 16 })).map(
      ([i, ins]) =>
        (b: Buffer) =>
          splice(b, i, 0, ins),
    ),
    fc.tuple(at, fc.nat({ max: 8 }), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(
      ([i, len, ins]) =>
        (b: Buffer) =>
          splice(b, i, len, ins),
    ),
    fc.tuple(at, fc.nat({ max: 4 }), fc.constantFrom(...TOKENS)).map(
      ([i, len, token]) =>
        (b: Buffer) =>
          splice(b, i, len, token),
    ),
    fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => (b: Buffer) => {
      const ls = lines(b)
      if (ls.length < 2) return b
      const [x, y] = [i % ls.length, j % ls.length]
      ;[ls[x], ls[y]] = [ls[y]!, ls[x]!]
      return Buffer.concat(ls)
    }),
    fc.nat().map((i) => (b: Buffer) => {
      const ls = lines(b)
      if (ls.length === 0) return b
      ls.splice(i % ls.length, 0, ls[i % ls.length]!)
      return Buffer.concat(ls)
    }),
    fc.nat().map((i) => (b: Buffer) => {
      const ls = lines(b)
      ls.splice(i % Math.max(1, ls.length), 1)
      return Buffer.concat(ls)
    }),
  )
}

/** Mostly mutations of `valid`; sometimes bytes or JSON values out of nowhere. */
export function fuzzedFile(valid: Buffer): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.array(edit(valid), { minLength: 1, maxLength: 3 }).map((edits) => edits.reduce((b, e) => e(b), valid)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 256 }).map((u) => Buffer.from(u)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(`${JSON.stringify(v)}\n`, 'utf8')) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 64 }).map((s) => Buffer.from(s, 'utf8')) },
  )
}

/** CI fuzzes the same inputs every time (a fixed seed); the long mode draws a new seed unless DIGLINE_FUZZ_SEED names one. */
export function fuzzOptions(runs: number): fc.Parameters<unknown> {
  const given = process.env.DIGLINE_FUZZ_SEED
  const seed = given !== undefined ? Number(given) : LONG ? undefined : 20261129
  return { numRuns: runs, endOnFailure: true, ...(seed === undefined ? {} : { seed }) }
}

export function plant(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, bytes)
}

/** A refusal a listing describes as data must be one digline names too. */
export function assertRefusalData(data: { name: string } | undefined, what: string): void {
  if (data !== undefined && !(data.name in REFUSALS || data.name in FAILURES)) throw new Error(`${what} described a refusal digline does not name: ${data.name}`)
}

/**
 * Plants FUZZ_RUNS fuzzed versions of `valid` at `file` and runs the readers on each; the tree under
 * `dir` must not change, except `file` when `after` says which bytes it must hold afterwards.
 */
export async function fuzzReader(dir: string, valid: Buffer, file: string, readers: (bytes: Buffer) => Promise<void>, after?: (bytes: Buffer) => Buffer): Promise<number> {
  let inputs = 0
  const planted = relative(dir, file)
  const others = (tree: TreeEntry[]) => (after === undefined ? tree : tree.filter((e) => e.path !== planted))
  await fc.assert(
    fc.asyncProperty(fuzzedFile(valid), async (bytes) => {
      inputs++
      plant(file, bytes)
      const before = snapshotTree(dir)
      await readers(bytes)
      expect(others(snapshotTree(dir))).toEqual(others(before))
      if (after !== undefined) expect(readFileSync(file).toString('hex')).toBe(after(bytes).toString('hex'))
    }),
    fuzzOptions(FUZZ_RUNS),
  )
  return inputs
}
