// casesDigests encodes the declared cases once for both the run's cases_digest and each case's own
// digest in the journal header; both must stay the bytes the whole-list and per-case encodings gave.
import { createHash } from 'node:crypto'
import { expect, test } from 'vitest'
import { canonicalJson, casesDigest, casesDigests, sha256Hex } from '../../../src/suite/hashing.js'
import type { EvalCase } from '../../../src/suite/types.js'

const sha = (text: string) => createHash('sha256').update(text).digest('hex')
const subject = (c: EvalCase) => ({ id: c.id, input: c.input, expected: c.expected, metadata: c.metadata })

const cases: EvalCase[] = [
  { id: 'b', input: { z: 1, a: [3, { y: null, x: 'é' }] }, expected: 'ok', metadata: { tag: 't' } },
  { id: 'a', input: 'plain', expected: undefined },
  { id: 'c', input: [null, 1], expected: { k: undefined, j: 2 }, metadata: {} },
  { id: 'd', input: JSON.parse('{"__proto__": 1, "b": 2}') as unknown },
]

test('the digest of the list and of each case are those of their canonical JSON, from one encoding', () => {
  const { all, each } = casesDigests(cases)
  expect(all).toBe(sha(canonicalJson(cases.map(subject))))
  expect(casesDigest(cases)).toBe(all)
  expect(Object.keys(each)).toEqual(['b', 'a', 'c', 'd'])
  for (const c of cases) expect(each[c.id]).toBe(sha(canonicalJson(subject(c))).slice(0, 12))
  expect(casesDigests([]).all).toBe(sha('[]'))
})

test('sha256Hex is sha256 in hex, for text and bytes', () => {
  expect(sha256Hex('digline')).toBe(sha('digline'))
  expect(sha256Hex(new TextEncoder().encode('é'))).toBe(sha('é'))
})

test('the per-case digests a journal declared are handed back when its cases_digest is these cases’ own, and computed again when not', () => {
  const fresh = casesDigests(cases)
  const declared = { all: fresh.all, each: JSON.parse(JSON.stringify(fresh.each)) as Record<string, string> }
  const reused = casesDigests(cases, declared)
  expect(reused.all).toBe(fresh.all)
  expect(reused.each).toBe(declared.each)

  const changed = cases.map((c) => (c.id === 'a' ? { ...c, input: 'changed' } : c))
  const stale = casesDigests(changed, declared)
  expect(stale.all).not.toBe(fresh.all)
  expect(stale.each).not.toBe(declared.each)
  expect(stale.each.a).toBe(sha(canonicalJson(subject(changed[1]!))).slice(0, 12))
  expect(stale.each.a).not.toBe(fresh.each.a)
  expect({ ...stale.each, a: fresh.each.a }).toEqual(fresh.each)
})
